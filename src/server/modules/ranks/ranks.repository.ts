import type { Rank } from '../../../contract/ranks.ts';
import type { Database } from '../../db/client.ts';
import { iso } from '../users/users.repository.ts';

interface RankRow {
  rank_id: number;
  name: string;
  status: boolean;
  created_at: Date | string;
}

export const toRank = (r: RankRow): Rank => ({
  _id: String(r.rank_id),
  rankId: r.rank_id,
  name: r.name,
  status: r.status,
  createdAt: iso(r.created_at),
});

/** Ranks are a short list: all of them, by name. */
export async function listRanks(database: Database): Promise<Rank[]> {
  const rows = await database.query<RankRow>('select rank_id, name, status, created_at from ranks order by lower(name), rank_id');
  return rows.map(toRank);
}

export async function findRank(database: Database, rankId: number): Promise<Rank | null> {
  const [row] = await database.query<RankRow>('select rank_id, name, status, created_at from ranks where rank_id = $1', [rankId]);
  return row ? toRank(row) : null;
}

/** Another rank with this name in any letter case. */
export async function nameTaken(database: Database, name: string, exceptRankId = 0): Promise<boolean> {
  const rows = await database.query('select 1 from ranks where lower(name) = lower($1) and rank_id <> $2', [name, exceptRankId]);
  return rows.length > 0;
}

/** Members (deleted ones too: their rows still point at it) holding the rank. */
export async function holders(database: Database, rankId: number): Promise<number> {
  const [row] = await database.query<{ n: number | string }>(
    'select count(*) as n from users where rank_id = $1',
    [rankId],
  );
  return Number(row.n);
}
