import { z } from 'zod';
import { messageResponse } from './common.ts';
import { endpoints } from './endpoint.ts';

/** Spec §3 Rank. */
export const rank = z.object({
  _id: z.string(),
  rankId: z.number(),
  name: z.string(),
  status: z.boolean(),
  createdAt: z.string(),
});
export type Rank = z.infer<typeof rank>;

export const rankBody = z.object({
  name: z.string().trim().min(1, 'Rank name is required').max(50, 'Rank name must be at most 50 characters'),
  status: z.boolean().default(true),
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
});
