import { z } from 'zod';
import { awaitingApprovalResponse } from './approvals.ts';
import { pageOf, paging, rupeeAmount, sortParam, wireDate } from './common.ts';
import { endpoints } from './endpoint.ts';
import { LEDGER_KIND_NAMES } from './ledger-kinds.ts';
import { memberLedgerCsvQuery, memberLedgerQuery, memberLedgerResponse, memberMoney } from './member-money.ts';
import { plainText } from './reports.ts';

/** Spec §9 wallet types. */
export const WALLET_TYPES = [
  { value: 'wallet_recharge', label: 'Wallet Recharge' },
  { value: 'wallet_withdrawal', label: 'Wallet Withdrawal' },
] as const;
export const walletType = z.enum(['wallet_recharge', 'wallet_withdrawal'], {
  error: 'transactionType must be wallet_recharge or wallet_withdrawal',
});
export type WalletType = z.infer<typeof walletType>;

const userIdField = z.coerce
  .number({ error: 'userId must be a number' })
  .int('userId must be a whole number')
  .positive('userId must be a positive number')
  .max(Number.MAX_SAFE_INTEGER, 'userId is too large');

export const userIdParams = z.object({ userId: userIdField });
export const idParams = z.object({
  id: z.coerce.number({ error: 'id must be a number' }).int().positive('id must be a positive number').max(Number.MAX_SAFE_INTEGER, 'id is too large'),
});


/**
 * What the wallet transactions list can be sorted by: the date (newest first by default) or the
 * amount. Not by member name: the ledger holds no name, and an order by name over 10,000,000 lines
 * would walk the members by name and probe each one's lines, unbounded when a filter matches few
 * (issue 24 asked for it; the member's own ledger is on the member page).
 */
export const WALLET_SORT_KEYS = ['createdAt', 'amount'] as const;
export const walletSort = sortParam(WALLET_SORT_KEYS, '-createdAt');
export type WalletSort = z.infer<typeof walletSort>;

const PLAIN_RUPEES = /^([0-9]{1,12})(?:\.([0-9]{1,2}))?$/;

/**
 * A rupee amount bound of the list (`minAmount=100.5`) read digit by digit into paise, never
 * through a float; a sign, an exponent or a third decimal is refused.
 */
const rupeeBound = (name: string) =>
  z.string().trim().transform((v, ctx) => {
    const m = PLAIN_RUPEES.exec(v);
    if (!m) {
      ctx.addIssue({ code: 'custom', message: `${name} must be an amount in rupees with at most 2 decimals` });
      return z.NEVER;
    }
    return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  });

/**
 * The wallet list's filters (and the export's): a member, a type, a date range (business days in
 * Asia/Kolkata, dd-mm-yyyy) and an amount range (rupees, compared with the amount as shown:
 * without its sign). Amount bounds arrive as paise after parsing.
 */
const walletFilterShape = {
  userId: userIdField.optional(),
  /** Issue 24: any kind of the ledger; none = the spec's list, recharges and withdrawals. */
  type: z.enum(LEDGER_KIND_NAMES, { error: `type must be one of: ${LEDGER_KIND_NAMES.join(', ')}` }).optional(),
  fromDate: wireDate.optional(),
  toDate: wireDate.optional(),
  minAmount: rupeeBound('minAmount').optional(),
  maxAmount: rupeeBound('maxAmount').optional(),
  sort: walletSort,
};
type FilterInput = { fromDate?: string; toDate?: string; minAmount?: number; maxAmount?: number };
const orderedRanges = <T extends z.ZodType<FilterInput>>(schema: T) =>
  schema
    .refine((q) => !q.fromDate || !q.toDate || q.fromDate <= q.toDate, { message: 'fromDate must not be after toDate', path: ['fromDate'] })
    .refine((q) => q.minAmount === undefined || q.maxAmount === undefined || q.minAmount <= q.maxAmount, {
      message: 'minAmount must not be more than maxAmount',
      path: ['minAmount'],
    });

/** GET /users/walletHistory: the wallet transactions list, or one member's ledger (dailyPayout mode). */
export const walletHistoryQuery = orderedRanges(
  z.object({
    transactionType: z.enum(['wallet_recharge', 'dailyPayout'], {
      error: 'transactionType must be wallet_recharge or dailyPayout',
    }),
    ...walletFilterShape,
    ...paging.shape,
  }),
).refine((q) => q.transactionType !== 'dailyPayout' || q.userId !== undefined, {
  message: 'userId is required when transactionType is dailyPayout',
  path: ['userId'],
});

/** GET /users/walletHistory.csv: the whole filtered list, in the list's order. */
export const walletCsvQuery = orderedRanges(z.object(walletFilterShape));
export type WalletFilters = z.infer<typeof walletCsvQuery>;

/** Spec §3 Wallet transaction. */
export const walletTransaction = z.object({
  id: z.number(),
  userId: z.number(),
  userName: z.string(),
  fullName: z.string(),
  amount: z.number(),
  dateTime: z.string(),
  /** Spec §9: wallet_recharge or wallet_withdrawal; with a `type` filter (issue 24), any kind of the ledger. */
  transactionType: z.string(),
  /** Which way it went (issue 24: a kind such as a reversal's daily payout can go either way); absent from a spec server. */
  type: z.enum(['credit', 'debit']).optional(),
});
export type WalletTransaction = z.infer<typeof walletTransaction>;

export const walletTransactionsResponse = pageOf(walletTransaction);
export type WalletTransactionsPage = z.infer<typeof walletTransactionsResponse>;

/** One ledger row as the member's amount history shows it (spec §3 Wallet history entry). */
export const ledgerHistoryEntry = z.object({
  id: z.number(),
  userId: z.number(),
  amount: z.number(),
  type: z.enum(['credit', 'debit']),
  transactionType: z.string(),
  description: z.string().nullable(),
  date: z.string(),
  transactionId: z.number(),
});

export const memberHistoryResponse = z.object({
  success: z.literal(true),
  user: z.object({
    userId: z.number(),
    fullName: z.string(),
    email: z.string(),
    phone: z.string(),
    status: z.boolean(),
  }),
  /** The wallet balance now, rupees. */
  currentAmount: z.number(),
  history: z.array(ledgerHistoryEntry),
  total: z.number(),
  page: z.number(),
  limit: z.number(),
});

export const walletHistoryResponse = z.union([walletTransactionsResponse, memberHistoryResponse]);

export const rechargeBody = z.object({
  userId: userIdField,
  amount: rupeeAmount,
  transactionType: walletType,
});
export type RechargeBody = z.infer<typeof rechargeBody>;

export const moneyMovedResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ transactionId: z.number(), userId: z.number(), amount: z.number(), balance: z.number() }),
});

export const balanceResponse = z.object({
  success: z.literal(true),
  data: z.object({ userId: z.number(), balance: z.number() }),
});

export const balancesQuery = z.object({ userName: plainText(100).optional(), ...paging.shape });
export const memberBalance = z.object({ userId: z.number(), userName: z.string(), fullName: z.string(), balance: z.number() });
export type MemberBalance = z.infer<typeof memberBalance>;
export const balancesResponse = pageOf(memberBalance);

export const walletSummaryResponse = z.object({
  success: z.literal(true),
  data: z.object({
    /** Sum of every member's balance. */
    totalBalance: z.number(),
    recharges: z.object({ count: z.number(), amount: z.number() }),
    withdrawals: z.object({ count: z.number(), amount: z.number() }),
    pendingWithdrawals: z.number(),
  }),
});

export const userSummaryResponse = z.object({
  success: z.literal(true),
  data: z.object({
    userId: z.number(),
    userName: z.string(),
    balance: z.number(),
    totalCredits: z.number(),
    totalDebits: z.number(),
    transactions: z.number(),
    lastTransactionAt: z.string().nullable(),
  }),
});

export const transactionResponse = z.object({
  success: z.literal(true),
  data: z.object({
    id: z.number(),
    userId: z.number(),
    userName: z.string(),
    amount: z.number(),
    type: z.enum(['credit', 'debit']),
    transactionType: z.string(),
    description: z.string().nullable(),
    batchId: z.number().nullable(),
    actorId: z.number().nullable(),
    dateTime: z.string(),
  }),
});

// ---- Withdrawal requests: requested, then approved (debits) or rejected (nothing moves) ----

export const WITHDRAWAL_STATUSES = ['pending', 'approved', 'rejected'] as const;

export const withdrawalBody = z.object({ userId: userIdField, amount: rupeeAmount, remarks: plainText(500).optional() });

export const withdrawalDecisionBody = z.object({
  status: z.enum(['approved', 'rejected'], { error: 'status must be approved or rejected' }),
  remarks: plainText(500).optional(),
});

export const withdrawalsQuery = z.object({
  status: z.enum(WITHDRAWAL_STATUSES, { error: 'status must be pending, approved or rejected' }).optional(),
  ...paging.shape,
});

export const withdrawalRequest = z.object({
  id: z.number(),
  userId: z.number(),
  userName: z.string(),
  amount: z.number(),
  status: z.enum(WITHDRAWAL_STATUSES),
  remarks: z.string().nullable(),
  transactionId: z.number().nullable(),
  /** The operator who filed it: they cannot approve it themselves. */
  requestedBy: z.number().nullable(),
  decidedBy: z.number().nullable(),
  decidedAt: z.string().nullable(),
  createdAt: z.string(),
});

export const withdrawalResponse = z.object({ success: z.literal(true), message: z.string(), data: withdrawalRequest });
export type WithdrawalRequest = z.infer<typeof withdrawalRequest>;
export const withdrawalsResponse = pageOf(withdrawalRequest);

/** GET /wallet/my-day: what the signed-in operator may still move today (issue 22), and for one member before a checker must see it. */
export const myDayQuery = z.object({
  userId: z.coerce.number({ error: 'userId must be a number' }).int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
});
export const myDay = z.object({
  approvalThreshold: z.number(),
  dailyCreditLimit: z.number(),
  creditedToday: z.number(),
  creditLeft: z.number(),
  dailyDebitLimit: z.number(),
  debitedToday: z.number(),
  debitLeft: z.number(),
  /** With ?userId: what this operator moved for the member today, and what may still move before a checker must approve. */
  userId: z.number().optional(),
  movedForMember: z.number().optional(),
  leftBeforeApproval: z.number().optional(),
});
export type MyDay = z.infer<typeof myDay>;


export const walletApi = endpoints('wallet', {
  // One route, two lists (spec §7): the wallet transactions, or one member's ledger for the
  // Membership screen. One route has one permission: wallet_view for both.
  history: {
    method: 'GET', path: '/users/walletHistory', access: 'wallet_view', query: walletHistoryQuery, responses: { 200: walletHistoryResponse },
  },
  historyCsv: {
    method: 'GET', path: '/users/walletHistory.csv', access: 'wallet_view', query: walletCsvQuery, file: 'csv', responses: {},
  },
  recharge: {
    method: 'POST', path: '/wallets/userWalletRecharge', access: 'wallet_manage', body: rechargeBody,
    responses: { 200: moneyMovedResponse, 202: awaitingApprovalResponse },
  },
  balance: { method: 'GET', path: '/wallet/balance/:userId', access: 'wallet_view', params: userIdParams, responses: { 200: balanceResponse } },
  balances: { method: 'GET', path: '/wallet/balances', access: 'wallet_view', query: balancesQuery, responses: { 200: balancesResponse } },
  summary: { method: 'GET', path: '/wallet/summary', access: 'wallet_view', responses: { 200: walletSummaryResponse } },
  myDay: {
    method: 'GET', path: '/wallet/my-day', access: 'session', query: myDayQuery,
    responses: { 200: z.object({ success: z.literal(true), data: myDay }) },
  },
  memberSummary: {
    method: 'GET', path: '/wallet/summary/:userId', access: 'wallet_view', params: userIdParams, responses: { 200: userSummaryResponse },
  },
  transaction: { method: 'GET', path: '/wallet/transactions/:id', access: 'wallet_view', params: idParams, responses: { 200: transactionResponse } },
  requestWithdrawal: {
    method: 'POST', path: '/wallet/withdrawal', access: 'wallet_manage', body: withdrawalBody, responses: { 201: withdrawalResponse },
  },
  withdrawals: { method: 'GET', path: '/wallet/withdrawals', access: 'wallet_view', query: withdrawalsQuery, responses: { 200: withdrawalsResponse } },
  decideWithdrawal: {
    method: 'PUT', path: '/wallet/withdrawals/:id', access: 'wallet_manage', params: idParams, body: withdrawalDecisionBody,
    responses: { 200: withdrawalResponse, 202: awaitingApprovalResponse },
  },
  // Issue 24: one member's money, for the member page.
  memberMoney: {
    method: 'GET', path: '/wallet/members/:userId/money', access: 'wallet_view', params: userIdParams,
    responses: { 200: z.object({ success: z.literal(true), data: memberMoney }) },
  },
  memberLedger: {
    method: 'GET', path: '/wallet/members/:userId/ledger', access: 'wallet_view', params: userIdParams, query: memberLedgerQuery,
    responses: { 200: memberLedgerResponse },
  },
  memberLedgerCsv: {
    method: 'GET', path: '/wallet/members/:userId/ledger.csv', access: 'wallet_view', params: userIdParams, query: memberLedgerCsvQuery,
    file: 'csv', responses: {},
  },
});
