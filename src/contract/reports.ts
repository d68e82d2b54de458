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
export const REVENUE_SORTS = ['dateTime', 'amount', 'userName'] as const;
export const INCOME_SORTS = ['amount', 'userName'] as const;

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
  // Issue 24: level income on a report (not a spec type; the activation's credits to the upline).
  { value: 'levelIncome', label: 'Level Income' },
] as const;
export const rewardType = z.enum(['dailyPayout', 'monthlyReward', 'royaltyIncome', 'referral_bonus_10_users', 'levelIncome'], {
  error: 'transactionType must be one of dailyPayout, monthlyReward, royaltyIncome, referral_bonus_10_users, levelIncome',
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

/**
 * Spec §3/§7 Revenue: `{ data: [{ dateTime, amount, userName }] }` is accepted as well as ours
 * (issue 24 item 7): everything beyond those three is optional, and the panel fills it in
 * (`normalizeRevenue` in the reports feature).
 */
export const revenueResponse = z.object({
  success: z.literal(true).optional(),
  data: z.array(revenueEntry.partial({ id: true, userId: true }).extend({ amount: z.coerce.number() })),
  /** Over the whole range (and user-name filter), not just this page. */
  totalAmount: z.number().optional(),
  count: z.number().optional(),
  /** Amount per business day over the range, for the chart. */
  daily: z.array(z.object({ date: z.string(), amount: z.number() })).optional(),
  page: z.number().optional(),
  limit: z.number().optional(),
});
export type RevenueAnswer = z.infer<typeof revenueResponse>;
/** The Revenue answer as the screen uses it, every field filled in. */
export type RevenueResponse = {
  data: RevenueEntry[]; totalAmount: number; count: number; daily: { date: string; amount: number }[]; page: number; limit: number;
};

/** Spec §3: 'level N' in the rank name, else Level 3 from 500, Level 2 from 200, else Level 1. */
export function royaltyDisplayLevel(rankName: string | null | undefined, amount: number): number {
  const named = rankName ? /level\s*(\d+)/i.exec(rankName) : null;
  if (named) return Number(named[1]);
  if (amount >= 500) return 3;
  if (amount >= 200) return 2;
  return 1;
}

/** Spec §3 receiver: userId, userName, amount, rankName, dateTime (level is ours, derived when absent). */
export const receiver = memberAmount.extend({
  userId: z.coerce.number().optional(),
  amount: z.coerce.number(),
  rankName: z.string().nullable().optional(),
  dateTime: z.string().optional(),
  level: z.number().optional(),
});

export const incomeBatch = z.object({
  batchId: z.number().optional(),
  kind: z.enum(['royalty', 'reward']).optional(),
  rewardType: z.string().nullable().optional(),
  runDate: z.string().optional(),
  source: z.string().optional(),
  status: z.string().optional(),
  /** Receivers of this batch among the users on this page, so a batch is never sent whole. */
  receivers: z.array(receiver),
});

export const incomeUser = memberAmount.extend({ rankName: z.string().nullable(), level: z.number(), transactions: z.number() });
export type IncomeUser = z.infer<typeof incomeUser>;

/** Issue 24: a reversal as its own row (negative), under the user it took back from. */
export const incomeReversal = memberAmount.extend({ label: z.string() });
export type IncomeReversal = z.infer<typeof incomeReversal>;

/**
 * Royalty / Reward Income. Spec §7's `{ data: [{ receivers: [...] }] }` is accepted as well as
 * ours (issue 24 item 7): the panel groups the receivers per user when `users` is absent
 * (`normalizeIncome` in the reports feature). Amounts are what members received, net of TDS and
 * admin charge; reversals are rows of their own (`reversals`) and count in the total.
 */
export const incomeResponse = z.object({
  success: z.literal(true).optional(),
  data: z.array(incomeBatch),
  /** Grouped per user, one page (net received before reversals). */
  users: z.array(incomeUser).optional(),
  /** The reversals of this page's users, negative. */
  reversals: z.array(incomeReversal).optional(),
  totalAmount: z.number().optional(),
  totalUsers: z.number().optional(),
  transactions: z.number().optional(),
  page: z.number().optional(),
  limit: z.number().optional(),
});
export type IncomeAnswer = z.infer<typeof incomeResponse>;
/** The income answer as the screen uses it, every field filled in. */
export type IncomeResponse = {
  data: IncomeAnswer['data']; users: IncomeUser[]; reversals: IncomeReversal[];
  totalAmount: number; totalUsers: number; transactions: number; page: number; limit: number;
};

export const reportsApi = endpoints('reports', {
  revenue: { method: 'GET', path: '/wallets/adminRevenue', access: 'reports_view', query: revenueQuery, responses: { 200: revenueResponse } },
  revenueCsv: { method: 'GET', path: '/wallets/adminRevenue.csv', access: 'reports_view', query: reportCsvQuery, file: 'csv', responses: {} },
  royalty: { method: 'GET', path: '/royalties/royaltyStats', access: 'reports_view', query: royaltyQuery, responses: { 200: incomeResponse } },
  royaltyCsv: { method: 'GET', path: '/royalties/royaltyStats.csv', access: 'reports_view', query: reportCsvQuery, file: 'csv', responses: {} },
  rewards: { method: 'GET', path: '/rewards/rewardsDaily', access: 'reports_view', query: rewardsQuery, responses: { 200: incomeResponse } },
  rewardsCsv: { method: 'GET', path: '/rewards/rewardsDaily.csv', access: 'reports_view', query: rewardsCsvQuery, file: 'csv', responses: {} },
});
