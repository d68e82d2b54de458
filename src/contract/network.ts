import { z } from 'zod';
import { paging } from './common.ts';
import { endpoints } from './endpoint.ts';
import { idParam } from './users.ts';

/** The network view walks at most this many levels below a member. */
export const MAX_TREE_DEPTH = 10;

const memberId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** One member of a downline (spec §3 Downline member). */
export const downlineMember = z.object({
  fullName: z.string(),
  userId: z.number(),
  level: z.number(),
  state: z.string().nullable(),
  status: z.boolean(),
  createDate: z.string(),
});
export type DownlineMember = z.infer<typeof downlineMember>;

export const downlineQuery = paging.extend({ userId: memberId });

export const downlineResponse = z.object({
  statusCode: z.number(),
  message: z.string(),
  totalMember: z.number(),
  data: z.array(downlineMember),
});
export type DownlineResponse = z.infer<typeof downlineResponse>;

/** A short reference to a member: the upline chain and the referral card. */
export const memberRef = z.object({
  userId: z.number(),
  fullName: z.string(),
  level: z.number(),
  referralCode: z.string(),
  status: z.boolean(),
});
export type MemberRef = z.infer<typeof memberRef>;

export const referralResponse = z.object({
  success: z.literal(true),
  data: z.object({
    userId: z.number(),
    fullName: z.string(),
    referralCode: z.string(),
    level: z.number(),
    referredBy: z.number().nullable(),
    referrerName: z.string().nullable(),
    /** Members this member referred directly. */
    directReferrals: z.number(),
  }),
});

/** The referrer first, then the referrer's referrer, up to the root. */
export const uplineResponse = z.object({ success: z.literal(true), userId: z.number(), total: z.number(), data: z.array(memberRef) });

export const downlineTreeQuery = z.object({
  userId: memberId,
  depth: z.coerce.number().int().min(1).max(MAX_TREE_DEPTH).default(MAX_TREE_DEPTH),
  /** How many members of each level come with the counts. */
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export const downlineTreeResponse = z.object({
  success: z.literal(true),
  user: memberRef,
  depth: z.number(),
  /** Everyone within `depth` levels below the member. */
  totalMember: z.number(),
  levels: z.array(z.object({ depth: z.number(), count: z.number(), members: z.array(downlineMember) })),
});
export type DownlineTree = z.infer<typeof downlineTreeResponse>;

/** GET /network/children: one page of a member's direct referrals for the genealogy tree. */
export const networkChildrenQuery = paging.extend({
  userId: memberId,
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

/** A member's network: direct referrals (a list page, or the genealogy's node), the tree below, the chain above. */
export const networkApi = endpoints('network', {
  downline: { method: 'GET', path: '/users/downline', access: 'users_view', query: downlineQuery, responses: { 200: downlineResponse } },
  tree: { method: 'GET', path: '/users/downline-tree', access: 'users_view', query: downlineTreeQuery, responses: { 200: downlineTreeResponse } },
  referral: { method: 'GET', path: '/users/getReferral/:id', access: 'users_view', params: idParam, responses: { 200: referralResponse } },
  upline: { method: 'GET', path: '/users/getUserUpline/:id', access: 'users_view', params: idParam, responses: { 200: uplineResponse } },
  children: { method: 'GET', path: '/network/children', access: 'users_view', query: networkChildrenQuery, responses: { 200: networkChildrenResponse } },
});
