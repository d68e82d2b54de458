import { z } from 'zod';

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
export const rankDeletedResponse = z.object({ success: z.literal(true), message: z.string() });
