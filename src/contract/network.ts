import { z } from 'zod';
import { paging } from './common.ts';
import { downlineMember } from './users.ts';

/** GET /network/children: one page of a member's direct referrals for the genealogy tree. */
export const networkChildrenQuery = paging.extend({
  userId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

/**
 * A direct referral, with how many direct referrals of their own they have (a leaf has 0). A deleted
 * member stays in the tree, marked: their referrals keep them as referrer (decisions.md), so hiding
 * them would cut whole branches out of the genealogy.
 */
export const networkNode = downlineMember.extend({ directReferrals: z.number(), deleted: z.boolean() });
export type NetworkNode = z.infer<typeof networkNode>;

export const networkChildrenResponse = z.object({
  success: z.literal(true),
  userId: z.number(),
  /** Every direct referral of the member (deleted ones included), not just this page. */
  total: z.number(),
  page: z.number(),
  limit: z.number(),
  data: z.array(networkNode),
});
export type NetworkChildren = z.infer<typeof networkChildrenResponse>;
