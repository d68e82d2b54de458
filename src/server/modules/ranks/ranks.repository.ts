import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import { paiseToRupees } from '../../../contract/common.ts';
import type { Rank } from '../../../contract/ranks.ts';
import type { Db } from '../../db/client.ts';
import { iso } from '../../db/rows.ts';
import { users } from '../../db/schema/members.ts';
import { ranks } from '../../db/schema/catalogue.ts';

export type RankRow = typeof ranks.$inferSelect;

export const toRank = (r: RankRow): Rank => ({
  _id: String(r.rankId),
  rankId: r.rankId,
  name: r.name,
  status: r.status,
  position: r.position,
  royaltyWeight: r.royaltyWeight,
  minDirect: r.minDirect,
  minTeam: r.minTeam,
  minBusiness: paiseToRupees(r.minBusinessPaise),
  monthlyReward: paiseToRupees(r.monthlyRewardPaise),
  createdAt: iso(r.createdAt),
});

/** What a create or update writes (an update leaves out what it keeps). */
export type RankValues = Pick<typeof ranks.$inferInsert,
  'name' | 'status' | 'position' | 'royaltyWeight' | 'minDirect' | 'minTeam' | 'minBusinessPaise' | 'monthlyRewardPaise'>;

/** Ranks are a short list: all of them, by name. */
export async function listRanks(db: Db): Promise<RankRow[]> {
  return db.select().from(ranks).orderBy(sql`lower(${ranks.name})`, asc(ranks.rankId));
}

/** One batch of the CSV export: ranks after `afterId`, by id (keyset on the primary key). */
export async function ranksBatch(db: Db, afterId: number, limit: number): Promise<RankRow[]> {
  return db.select().from(ranks).where(sql`${ranks.rankId} > ${afterId}`).orderBy(asc(ranks.rankId)).limit(limit);
}

export async function findRank(db: Db, rankId: number): Promise<RankRow | null> {
  const [row] = await db.select().from(ranks).where(eq(ranks.rankId, rankId));
  return row ?? null;
}

/** Another rank with this name in any letter case. */
export async function nameTaken(db: Db, name: string, exceptRankId = 0): Promise<boolean> {
  const rows = await db.select({ rankId: ranks.rankId }).from(ranks)
    .where(and(sql`lower(${ranks.name}) = lower(${name})`, ne(ranks.rankId, exceptRankId))).limit(1);
  return rows.length > 0;
}

/** Members (deleted ones too: their rows still point at it) holding the rank. */
export async function holders(db: Db, rankId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users).where(eq(users.rankId, rankId));
  return row.n;
}

export async function insertRank(db: Db, values: RankValues & { name: string }): Promise<RankRow> {
  const [row] = await db.insert(ranks).values(values).returning();
  return row;
}

export async function updateRank(db: Db, rankId: number, values: Partial<RankValues>): Promise<RankRow | null> {
  const [row] = await db.update(ranks).set(values).where(eq(ranks.rankId, rankId)).returning();
  return row ?? null;
}

export async function deleteRank(db: Db, rankId: number): Promise<void> {
  await db.delete(ranks).where(eq(ranks.rankId, rankId));
}
