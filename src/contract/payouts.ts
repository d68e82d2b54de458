import { z } from 'zod';
import { awaitingApprovalResponse } from './approvals.ts';
import { paging, rupeeAmount, sortParam, wireDate } from './common.ts';
import { endpoints } from './endpoint.ts';
import { plainText } from './reports.ts';

export const PAYOUT_STATUSES = ['Success', 'Failure'] as const;
export const payoutStatus = z.enum(PAYOUT_STATUSES, { error: 'status must be Success or Failure' });

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
export const PAYOUT_SORTS = ['date', 'amount', 'status'] as const;
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
  totals: z.object({ count: z.number(), amount: z.number(), successful: z.number(), failed: z.number() }),
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

export const payoutsApi = endpoints('payouts', {
  list: { method: 'GET', path: '/wallets/dailyPayout', access: 'payouts_view', query: payoutsQuery, responses: { 200: payoutsResponse } },
  csv: { method: 'GET', path: '/wallets/dailyPayout.csv', access: 'payouts_view', query: payoutsCsvQuery, file: 'csv', responses: {} },
  transfer: {
    method: 'POST', path: '/transferAdmin', access: 'payouts_pay', body: transferBody,
    responses: { 200: transferResponse, 202: awaitingApprovalResponse },
  },
});
