import { z } from 'zod';
import { messageResponse } from './common.ts';
import { endpoints } from './endpoint.ts';
import { rupeesOrZero } from './income.ts';

/** A whole number from 0 to `max`. */
const count = (name: string, max: number) =>
  z.number({ error: `${name} must be a number` }).int(`${name} must be a whole number`)
    .min(0, `${name} must be 0 or more`).max(max, `${name} must be at most ${max}`);

/** Spec §3 Rank. */
export const rank = z.object({
  _id: z.string(),
  rankId: z.number(),
  name: z.string(),
  status: z.boolean(),
  // Issue 16: the income engine's criteria (see schema/catalogue.ts). Amounts in rupees. The
  // server always sends them; the defaults only let a reader parse a rank written before them.
  /** The ladder: higher is senior; a promotion only moves up it. */
  position: z.number().default(0),
  /** The rank's weight in the royalty pool (0: no share). */
  royaltyWeight: z.number().default(0),
  /** To qualify: active direct referrals, members below (all levels), team business in ₹. */
  minDirect: z.number().default(0),
  minTeam: z.number().default(0),
  minBusiness: z.number().default(0),
  /** monthlyReward by rank: paid each month to every active member holding the rank. */
  monthlyReward: z.number().default(0),
  createdAt: z.string(),
});
export type Rank = z.infer<typeof rank>;

export const rankBody = z.object({
  name: z.string().trim().min(1, 'Rank name is required').max(50, 'Rank name must be at most 50 characters'),
  status: z.boolean().default(true),
  // Optional: a new rank gets 0 for each one left out; an update keeps the stored value.
  position: count('Position', 1_000_000).optional(),
  royaltyWeight: count('Royalty weight', 1_000_000).optional(),
  minDirect: count('Minimum direct referrals', 10_000_000).optional(),
  minTeam: count('Minimum team size', 100_000_000).optional(),
  minBusiness: rupeesOrZero('Minimum team business').optional(),
  monthlyReward: rupeesOrZero('Monthly reward').optional(),
});
export type RankBody = z.input<typeof rankBody>;

export const rankIdParam = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const ranksResponse = z.object({ success: z.literal(true), data: z.array(rank) });
export const rankResponse = z.object({ success: z.literal(true), data: rank });
export const rankChangedResponse = z.object({ success: z.literal(true), message: z.string(), data: rank });

export const ranksApi = endpoints('ranks', {
  list: { method: 'GET', path: '/ranks/getAllRank', access: 'ranks_view', responses: { 200: ranksResponse } },
  get: { method: 'GET', path: '/ranks/getRankById/:id', access: 'ranks_view', params: rankIdParam, responses: { 200: rankResponse } },
  create: { method: 'POST', path: '/ranks/createRank', access: 'ranks_manage', body: rankBody, responses: { 201: rankChangedResponse } },
  update: {
    method: 'PUT', path: '/ranks/updateRank/:id', access: 'ranks_manage', params: rankIdParam, body: rankBody,
    responses: { 200: rankChangedResponse },
  },
  remove: { method: 'DELETE', path: '/ranks/deleteRank/:id', access: 'ranks_manage', params: rankIdParam, responses: { 200: messageResponse } },
  /** The ranks as CSV, streamed. */
  csv: { method: 'GET', path: '/ranks/ranks.csv', access: 'ranks_view', file: 'csv', responses: {} },
});
