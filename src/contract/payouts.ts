import { z } from 'zod';
import { awaitingApprovalResponse } from './approvals.ts';
import { paging, rupeeAmount, sortParam, wireDate } from './common.ts';
import { endpoints } from './endpoint.ts';
import { plainText } from './reports.ts';

/** Spec §9's two, and Reversed (issue 24: a reversed run's payouts stay, marked). */
export const PAYOUT_STATUSES = ['Success', 'Failure', 'Reversed'] as const;
export const payoutStatus = z.enum(PAYOUT_STATUSES, { error: 'status must be Success, Failure or Reversed' });

/** Spec §9 payout payment types: the value on the wire and its label. */
export const TYPE_INCOMES = [
  { value: 'dailyPayout', label: 'Daily Payout' },
  { value: 'wallet recharge', label: 'Wallet Recharge' },
] as const;
export const typeIncome = z.enum(['dailyPayout', 'wallet recharge'], {
  error: "typeIncome must be dailyPayout or 'wallet recharge'",
});

const payoutFilters = z.object({
  fromDate: wireDate.optional(),
  toDate: wireDate.optional(),
  status: payoutStatus.optional(),
  userName: plainText(100).optional(),
});
const notReversed = (r: { fromDate?: string; toDate?: string }) => !r.fromDate || !r.toDate || r.fromDate <= r.toDate;
const REVERSED = { message: 'fromDate must not be after toDate', path: ['fromDate'] };

/** The list's orders (each served by an index on daily_payouts): newest day first by default. */
export const PAYOUT_SORTS = ['date', 'amount', 'status', 'name'] as const;
export const payoutsQuery = payoutFilters
  .extend({ ...paging.shape, sort: sortParam(PAYOUT_SORTS, '-date') })
  .refine(notReversed, REVERSED);
export type PayoutsQuery = z.infer<typeof payoutsQuery>;
export const payoutsCsvQuery = payoutFilters.refine(notReversed, REVERSED);

/** Spec §3 Payout. */
export const payout = z.object({
  id: z.number(),
  userId: z.number(),
  userName: z.string(),
  amount: z.number(),
  /** The payout's day, yyyy-mm-dd. */
  date: z.string(),
  status: payoutStatus,
  paidAt: z.string().nullable(),
  /** Why a Failure row could not be paid ('No primary bank account'); null or absent otherwise. */
  reason: z.string().nullable().optional(),
  /** Issue 24: gross earned, TDS, admin charge (amount is the net, what the member receives). */
  gross: z.number().nullable().optional(),
  tds: z.number().optional(),
  adminCharge: z.number().optional(),
  runId: z.number().nullable().optional(),
  /** A Reversed row: who reversed it (by name), when, why, and what it was before. */
  reversedByName: z.string().nullable().optional(),
  reversedAt: z.string().nullable().optional(),
  reversalReason: z.string().nullable().optional(),
  reversedStatus: z.string().nullable().optional(),
});
export type Payout = z.infer<typeof payout>;

export const payoutsResponse = z.object({
  success: z.literal(true),
  data: z.array(payout),
  /** Rows matching every filter, for paging. */
  total: z.number(),
  page: z.number(),
  limit: z.number(),
  /** The four cards, over exactly the rows the filters select (date range, status and user name). */
  totals: z.object({ count: z.number(), amount: z.number(), successful: z.number(), failed: z.number(), reversed: z.number().optional() }),
  /** Per day: successful and failed payouts among the selected rows, for the chart. */
  daily: z.array(z.object({ date: z.string(), successful: z.number(), failed: z.number() })),
});
export type PayoutsPage = z.infer<typeof payoutsResponse>;

export const transferBody = z.object({
  userId: z.coerce.number({ error: 'userId must be a number' }).int().positive('userId must be a positive number')
    .max(Number.MAX_SAFE_INTEGER, 'userId is too large'),
  amount: rupeeAmount,
  typeIncome,
  payoutId: z.coerce.number({ error: 'payoutId must be a number' }).int().positive('payoutId must be a positive number')
    .max(Number.MAX_SAFE_INTEGER, 'payoutId is too large').optional(),
});
export type TransferBody = z.infer<typeof transferBody>;

export const transferResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({
    transactionId: z.number(),
    userId: z.number(),
    amount: z.number(),
    balance: z.number(),
    payoutId: z.number().nullable(),
    status: payoutStatus.nullable(),
  }),
});

/** Bulk Pay Now (issue 24): at most 500 payouts a request; `bulkId` names the bulk its chunks belong to. */
export const BULK_MAX = 500;
export const bulkPayBody = z.object({
  ids: z.array(z.number({ error: 'ids must be payout ids' }).int().positive().max(Number.MAX_SAFE_INTEGER), { error: 'ids must be a list of payout ids' })
    .min(1, 'Select at least one payout').max(BULK_MAX, `At most ${BULK_MAX} payouts per request`),
  bulkId: z.string().regex(/^[A-Za-z0-9-]{8,64}$/, 'bulkId must be 8 to 64 letters, digits or dashes').optional(),
});
export type BulkPayBody = z.infer<typeof bulkPayBody>;
export const bulkPayResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({
    /** Paid now, already paid, or filed for approval (its note says which). */
    done: z.array(z.object({ id: z.number(), note: z.string().optional() })),
    failed: z.array(z.object({ id: z.number(), message: z.string() })),
    /** The one approval request holding this bulk's payouts above the threshold, if any. */
    approvalId: z.number().nullable(),
  }),
});
export type BulkPayResult = z.infer<typeof bulkPayResponse>['data'];

/** "Every row the filter matches": the Failure payouts' ids (capped: a bulk of more is refused with a message). */
export const BULK_IDS_CAP = 10_000;
export const payoutIdsResponse = z.object({ success: z.literal(true), data: z.array(z.number()) });

export const payoutsApi = endpoints('payouts', {
  list: { method: 'GET', path: '/wallets/dailyPayout', access: 'payouts_view', query: payoutsQuery, responses: { 200: payoutsResponse } },
  csv: { method: 'GET', path: '/wallets/dailyPayout.csv', access: 'payouts_view', query: payoutsCsvQuery, file: 'csv', responses: {} },
  failedIds: {
    method: 'GET', path: '/wallets/dailyPayout/failedIds', access: 'payouts_pay', query: payoutsCsvQuery, responses: { 200: payoutIdsResponse },
  },
  payBulk: {
    method: 'POST', path: '/payouts/payNow/bulk', access: 'payouts_pay', body: bulkPayBody, responses: { 200: bulkPayResponse },
  },
  transfer: {
    method: 'POST', path: '/transferAdmin', access: 'payouts_pay', body: transferBody,
    responses: { 200: transferResponse, 202: awaitingApprovalResponse },
  },
});
