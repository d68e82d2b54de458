import { z } from 'zod';
import { paging, sortParam, wireDate } from './common.ts';
import { endpoints } from './endpoint.ts';

/** Free text from a form (names, remarks): trimmed, bounded, and without NUL, which PostgreSQL text refuses. */
export const plainText = (max: number) =>
  z.string().trim().max(max).refine((v) => !v.includes('\u0000'), 'Text must not contain NUL characters');

/** A dd-mm-yyyy query value that must be present, with a message naming it. */
export const requiredWireDate = (name: string) =>
  z.string({ error: `${name} is required (dd-mm-yyyy)` }).pipe(wireDate);

const notReversed = <T extends { fromDate?: string; toDate?: string }>(r: T) => !r.fromDate || !r.toDate || r.fromDate <= r.toDate;
export const REVERSED_RANGE = { message: 'fromDate must not be after toDate', path: ['fromDate'] };

/** Revenue, royalty and reward searches: both dates are required (spec §5). */
const reportRange = z.object({
  fromDate: requiredWireDate('fromDate'),
  toDate: requiredWireDate('toDate'),
  userName: plainText(100).optional(),
  ...paging.shape,
});

/** Revenue rows by time (newest first by default) or amount; royalty and reward users by income (largest first by default). */
export const REVENUE_SORTS = ['dateTime', 'amount'] as const;
export const INCOME_SORTS = ['amount'] as const;

export const revenueQuery = reportRange.extend({ sort: sortParam(REVENUE_SORTS, '-dateTime') }).refine(notReversed, REVERSED_RANGE);
export type RevenueQuery = z.infer<typeof revenueQuery>;
export const royaltyQuery = reportRange.extend({ sort: sortParam(INCOME_SORTS, '-amount') }).refine(notReversed, REVERSED_RANGE);

/** The same range, for the whole-range CSV exports (no paging). */
export const reportCsvQuery = reportRange.omit({ page: true, limit: true }).refine(notReversed, REVERSED_RANGE);

/** Spec §9 reward types, with their labels; dailyPayout is the default. */
export const REWARD_TYPES = [
  { value: 'dailyPayout', label: 'Daily Payout' },
  { value: 'monthlyReward', label: 'Monthly Reward' },
  { value: 'royaltyIncome', label: 'Royalty Income' },
  { value: 'referral_bonus_10_users', label: 'Referral Bonus' },
] as const;
export const rewardType = z.enum(['dailyPayout', 'monthlyReward', 'royaltyIncome', 'referral_bonus_10_users'], {
  error: 'transactionType must be one of dailyPayout, monthlyReward, royaltyIncome, referral_bonus_10_users',
});
export type RewardType = z.infer<typeof rewardType>;

export const rewardsQuery = reportRange
  .extend({ transactionType: rewardType.default('dailyPayout'), sort: sortParam(INCOME_SORTS, '-amount') })
  .refine(notReversed, REVERSED_RANGE);
export const rewardsCsvQuery = reportRange
  .omit({ page: true, limit: true })
  .extend({ transactionType: rewardType.default('dailyPayout') })
  .refine(notReversed, REVERSED_RANGE);

/** What every report row names: the member and an amount in rupees. */
const memberAmount = z.object({ userId: z.number(), userName: z.string(), amount: z.number() });

export const revenueEntry = memberAmount.extend({ id: z.number(), dateTime: z.string() });
export type RevenueEntry = z.infer<typeof revenueEntry>;

export const revenueResponse = z.object({
  success: z.literal(true),
  data: z.array(revenueEntry),
  /** Over the whole range (and user-name filter), not just this page. */
  totalAmount: z.number(),
  count: z.number(),
  /** Amount per business day over the range, for the chart. */
  daily: z.array(z.object({ date: z.string(), amount: z.number() })),
  page: z.number(),
  limit: z.number(),
});
export type RevenueResponse = z.infer<typeof revenueResponse>;

/** Spec §3: 'level N' in the rank name, else Level 3 from 500, Level 2 from 200, else Level 1. */
export function royaltyDisplayLevel(rankName: string | null | undefined, amount: number): number {
  const named = rankName ? /level\s*(\d+)/i.exec(rankName) : null;
  if (named) return Number(named[1]);
  if (amount >= 500) return 3;
  if (amount >= 200) return 2;
  return 1;
}

export const receiver = memberAmount.extend({ rankName: z.string().nullable(), dateTime: z.string(), level: z.number() });

export const incomeBatch = z.object({
  batchId: z.number(),
  kind: z.enum(['royalty', 'reward']),
  rewardType: z.string().nullable(),
  runDate: z.string(),
  source: z.string(),
  status: z.string(),
  /** Receivers of this batch among the users on this page, so a batch is never sent whole. */
  receivers: z.array(receiver),
});

export const incomeUser = memberAmount.extend({ rankName: z.string().nullable(), level: z.number(), transactions: z.number() });
export type IncomeUser = z.infer<typeof incomeUser>;

export const incomeResponse = z.object({
  success: z.literal(true),
  data: z.array(incomeBatch),
  /** Grouped per user, one page, largest income first. */
  users: z.array(incomeUser),
  totalAmount: z.number(),
  totalUsers: z.number(),
  transactions: z.number(),
  page: z.number(),
  limit: z.number(),
});
export type IncomeResponse = z.infer<typeof incomeResponse>;

export const reportsApi = endpoints('reports', {
  revenue: { method: 'GET', path: '/wallets/adminRevenue', access: 'reports_view', query: revenueQuery, responses: { 200: revenueResponse } },
  revenueCsv: { method: 'GET', path: '/wallets/adminRevenue.csv', access: 'reports_view', query: reportCsvQuery, file: 'csv', responses: {} },
  royalty: { method: 'GET', path: '/royalties/royaltyStats', access: 'reports_view', query: royaltyQuery, responses: { 200: incomeResponse } },
  royaltyCsv: { method: 'GET', path: '/royalties/royaltyStats.csv', access: 'reports_view', query: reportCsvQuery, file: 'csv', responses: {} },
  rewards: { method: 'GET', path: '/rewards/rewardsDaily', access: 'reports_view', query: rewardsQuery, responses: { 200: incomeResponse } },
  rewardsCsv: { method: 'GET', path: '/rewards/rewardsDaily.csv', access: 'reports_view', query: rewardsCsvQuery, file: 'csv', responses: {} },
});
