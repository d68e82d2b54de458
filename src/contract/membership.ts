import { z } from 'zod';
import { pageOf, paging, sortParam, wireDate } from './common.ts';
import { endpoints } from './endpoint.ts';

/** Spec §3 Member view, with the membership's amount and date. */
export const member = z.object({
  _id: z.string(),
  id: z.number(),
  userId: z.number(),
  fullName: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  status: z.boolean(),
  /** The membership fee paid, rupees. */
  amount: z.number(),
  /** The member's wallet balance now, rupees. */
  currentAmount: z.number(),
  /** When the membership was taken (ISO timestamp). */
  dateTime: z.string(),
  // Issue 16, what the income engine did (optional: a spec server answers without them).
  /** The plan sold; null for a membership from before the engine. */
  planName: z.string().nullable().optional(),
  /** 'active' earns daily payouts, 'completed' reached its duration or cap, 'legacy' predates the engine. */
  membershipStatus: z.enum(['active', 'completed', 'legacy']).optional(),
  /** Daily payouts earned so far (gross), rupees. */
  earned: z.number().optional(),
  /** What the membership earns per day, rupees. */
  dailyAmount: z.number().optional(),
});
export type Member = z.infer<typeof member>;

/**
 * The list's orders, each served by an index; newest membership first by default. `name` is the
 * member's name, `currentAmount` the wallet balance now (the spec's "current amount", issue 24).
 */
export const MEMBERSHIP_SORTS = ['dateTime', 'userId', 'amount', 'name', 'currentAmount'] as const;

/** fromDate/toDate are dd-mm-yyyy, both inclusive days in India time; a reversed range is refused. */
export const membershipQuery = paging
  .extend({ fromDate: wireDate.optional(), toDate: wireDate.optional(), sort: sortParam(MEMBERSHIP_SORTS, '-dateTime') })
  .refine((r) => !r.fromDate || !r.toDate || r.fromDate <= r.toDate, {
    message: 'fromDate must not be after toDate',
    path: ['fromDate'],
  });

/** The Membership list's CSV (issue 24): the same filters and order, every row, streamed. */
export const membershipCsvQuery = z
  .object({ fromDate: wireDate.optional(), toDate: wireDate.optional(), sort: sortParam(MEMBERSHIP_SORTS, '-dateTime') })
  .refine((r) => !r.fromDate || !r.toDate || r.fromDate <= r.toDate, {
    message: 'fromDate must not be after toDate',
    path: ['fromDate'],
  });
export type MembershipCsvFilter = z.infer<typeof membershipCsvQuery>;

export const membershipResponse = pageOf(member);
export type MembershipPage = z.infer<typeof membershipResponse>;

export const membershipApi = endpoints('membership', {
  list: { method: 'GET', path: '/users/membership', access: 'membership_view', query: membershipQuery, responses: { 200: membershipResponse } },
  listCsv: { method: 'GET', path: '/users/membership.csv', access: 'membership_view', query: membershipCsvQuery, file: 'csv', responses: {} },
});
