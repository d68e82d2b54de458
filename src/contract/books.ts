import { z } from 'zod';
import { pageInfo, paging, wireDate } from './common.ts';
import { endpoints } from './endpoint.ts';

/**
 * The books (issue 25, docs/books.md): the trial balance at any date, an account's statement over
 * a period, a transfer with its legs, and a member's statement. Amounts are rupees; a balance is
 * shown as a debit or a credit (the books keep them credit-positive: an asset or expense account's
 * usual balance is a debit).
 */

/** The chart of accounts (book_accounts.code, drizzle/0029). */
export const BOOK_ACCOUNT_CODES = [
  'company_bank', 'outside_payments', 'recoveries_owed', 'member_wallets', 'withdrawals_payable', 'bank_in_transit',
  'tds_payable', 'membership_revenue', 'admin_charge_income', 'level_income_expense', 'daily_payout_expense',
  'royalty_expense', 'reward_expense', 'operator_credits', 'rounding',
] as const;
export type BookAccountCode = (typeof BOOK_ACCOUNT_CODES)[number];
export const bookAccountCode = z.enum(BOOK_ACCOUNT_CODES, { error: 'Unknown account' });
export const BOOK_ACCOUNT_TYPES = ['asset', 'liability', 'income', 'expense'] as const;
export const bookAccountType = z.enum(BOOK_ACCOUNT_TYPES);
export type BookAccountType = z.infer<typeof bookAccountType>;

const fromNotAfterTo = { message: 'fromDate must not be after toDate', path: ['fromDate'] };

/** A balance as a trial balance shows it: one of debit or credit, the other null (both null at zero). */
const sided = { debit: z.number().nullable(), credit: z.number().nullable() };
/** A user a line names (a member, an operator): the id and the name. */
const userRef = z.object({ userId: z.number(), name: z.string().nullable() });
/** What a posted line is: its kind (a ledger kind, or a company movement such as shortfall), in words, and its description. */
const lineKind = { kind: z.string(), kindLabel: z.string(), description: z.string().nullable() };

// ---- Trial balance ----

/** dd-mm-yyyy, an India day; today when absent. */
export const trialBalanceQuery = z.object({ date: wireDate.optional() });

export const trialBalanceAccount = z.object({
  code: bookAccountCode,
  name: z.string(),
  type: bookAccountType,
  description: z.string(),
  /** Credit-positive, as the books keep it (a debit balance is negative). */
  balance: z.number(),
  ...sided,
});
export type TrialBalanceAccount = z.infer<typeof trialBalanceAccount>;

export const trialBalance = z.object({
  /** The India day (yyyy-mm-dd) the balances are at the end of. */
  date: z.string(),
  accounts: z.array(trialBalanceAccount),
  totalDebit: z.number(),
  totalCredit: z.number(),
  /** totalCredit − totalDebit: zero when the books balance. */
  difference: z.number(),
  balanced: z.boolean(),
});
export type TrialBalance = z.infer<typeof trialBalance>;

// ---- An account's statement ----

export const accountParams = z.object({ code: bookAccountCode });
const periodShape = { fromDate: wireDate, toDate: wireDate };
export const statementQuery = z.object({ ...periodShape, ...paging.shape }).refine((q) => q.fromDate <= q.toDate, fromNotAfterTo);
export const statementCsvQuery = z.object(periodShape).refine((q) => q.fromDate <= q.toDate, fromNotAfterTo);

/** What caused a transfer. */
export const transferCause = z.object({
  run: z.object({ runId: z.number(), kind: z.string().nullable(), periodStart: z.string().nullable(), periodEnd: z.string().nullable() }).nullable(),
  batchId: z.number().nullable(),
  approvalId: z.number().nullable(),
  bankBatchId: z.number().nullable(),
  operator: userRef.nullable(),
  /** The same in words ("Daily payout run #12 (03-05-2021)", "Approval request #4", "By Asha"…). */
  text: z.string(),
});
export type TransferCause = z.infer<typeof transferCause>;

/** One leg of an account: a company leg, or (member wallets) one member's line. */
export const statementLeg = z.object({
  /** The leg's id: book_legs.id, or the ledger line's id for the member wallets. */
  id: z.number(),
  transferId: z.number(),
  dateTime: z.string(),
  /** The transfer's kind. */
  ...lineKind,
  /** The member whose line it is (member wallets only). */
  member: userRef.nullable(),
  ...sided,
  /** The account's balance right after this leg (credit-positive). */
  balanceAfter: z.number(),
  cause: transferCause,
});
export type StatementLeg = z.infer<typeof statementLeg>;

export const accountStatement = z.object({
  account: z.object({ code: bookAccountCode, name: z.string(), type: bookAccountType, description: z.string() }),
  fromDate: z.string(),
  toDate: z.string(),
  /** Credit-positive balances; the sided figures as a trial balance shows them. */
  opening: z.number(),
  openingSide: z.object(sided),
  closing: z.number(),
  closingSide: z.object(sided),
  /** The period's movement: credits − debits (closing − opening). */
  movement: z.number(),
  /** The debits and credits apart (positive figures), from the daily rollups at any size of period. */
  debits: z.number(),
  credits: z.number(),
  legs: z.array(statementLeg),
  ...pageInfo,
});
export type AccountStatement = z.infer<typeof accountStatement>;

// ---- A transfer ----

export const transferParams = z.object({
  id: z.coerce.number({ error: 'id must be a number' }).int().positive('id must be a positive number').max(Number.MAX_SAFE_INTEGER, 'id is too large'),
});
export const transferQuery = paging;

export const transferLine = z.object({
  id: z.number(),
  member: userRef,
  ...lineKind,
  ...sided,
  /** The company account the line is posted against. */
  counterAccount: z.string(),
});
export type TransferLine = z.infer<typeof transferLine>;

export const transferDetail = z.object({
  id: z.number(),
  kind: z.string(),
  kindLabel: z.string(),
  dateTime: z.string(),
  description: z.string().nullable(),
  cause: transferCause,
  /** The transfer this one corrects, and those that correct it. */
  corrects: z.number().nullable(),
  correctedBy: z.array(z.number()),
  /** Written before the books: one member line, its own transfer. */
  beforeTheBooks: z.boolean(),
  companyLegs: z.array(z.object({ account: bookAccountCode, name: z.string(), ...sided })),
  /** The member lines, a page at a time (a run's chunk has 40,000). */
  memberLines: z.array(transferLine),
  memberLinesTotal: z.number(),
  /** Every member line added up (credit-positive); with the company legs it makes zero. */
  memberTotal: z.number(),
  page: z.number(),
  limit: z.number(),
});
export type TransferDetail = z.infer<typeof transferDetail>;

export const booksApi = endpoints('books', {
  trialBalance: {
    method: 'GET', path: '/books/trial-balance', access: 'books_view', query: trialBalanceQuery,
    responses: { 200: z.object({ success: z.literal(true), data: trialBalance }) },
  },
  trialBalanceCsv: { method: 'GET', path: '/books/trial-balance.csv', access: 'books_view', query: trialBalanceQuery, file: 'csv', responses: {} },
  statement: {
    method: 'GET', path: '/books/accounts/:code/statement', access: 'books_view', params: accountParams, query: statementQuery,
    responses: { 200: z.object({ success: z.literal(true), data: accountStatement }) },
  },
  statementCsv: {
    method: 'GET', path: '/books/accounts/:code/statement.csv', access: 'books_view', params: accountParams, query: statementCsvQuery,
    file: 'csv', responses: {},
  },
  transfer: {
    method: 'GET', path: '/books/transfers/:id', access: 'books_view', params: transferParams, query: transferQuery,
    responses: { 200: z.object({ success: z.literal(true), data: transferDetail }) },
  },
});

// ---- A member's statement (the member page; wallet_view, in the wallet's query group) ----

const memberParams = z.object({
  userId: z.coerce.number({ error: 'userId must be a number' }).int('userId must be a whole number').positive('userId must be a positive number')
    .max(Number.MAX_SAFE_INTEGER, 'userId is too large'),
});
export const memberStatementQuery = statementQuery;
export const memberStatementCsvQuery = statementCsvQuery;

export const memberStatementLine = z.object({
  id: z.number(),
  transferId: z.number(),
  dateTime: z.string(),
  ...lineKind,
  /** The account on the other side, in words (book_accounts.name). */
  counterAccount: z.string(),
  ...sided,
  balanceAfter: z.number(),
});
export type MemberStatementLine = z.infer<typeof memberStatementLine>;

export const memberStatement = z.object({
  userId: z.number(),
  fullName: z.string(),
  fromDate: z.string(),
  toDate: z.string(),
  opening: z.number(),
  closing: z.number(),
  /** The period's credits and debits (positive figures). */
  credits: z.number(),
  debits: z.number(),
  lines: z.array(memberStatementLine),
  ...pageInfo,
});
export type MemberStatement = z.infer<typeof memberStatement>;

export const memberStatementApi = endpoints('wallet', {
  memberStatement: {
    method: 'GET', path: '/wallet/members/:userId/statement', access: 'wallet_view', params: memberParams, query: memberStatementQuery,
    responses: { 200: z.object({ success: z.literal(true), data: memberStatement }) },
  },
  memberStatementCsv: {
    method: 'GET', path: '/wallet/members/:userId/statement.csv', access: 'wallet_view', params: memberParams, query: memberStatementCsvQuery,
    file: 'csv', responses: {},
  },
});
