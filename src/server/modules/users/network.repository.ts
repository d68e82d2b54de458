import type { DownlineMember, DownlineTree } from '../../../contract/users.ts';
import type { Database } from '../../db/client.ts';
import { iso } from './users.repository.ts';

interface MemberRow {
  user_id: number | string;
  full_name: string;
  level: number;
  state: string | null;
  status: boolean;
  created_at: Date | string;
}

const toDownlineMember = (r: MemberRow): DownlineMember => ({
  fullName: r.full_name,
  userId: Number(r.user_id),
  level: r.level,
  state: r.state,
  status: r.status,
  createDate: iso(r.created_at),
});

/** Members directly referred by this member, newest first (like the users list), one page, with their total. */
export async function directDownline(
  database: Database,
  userId: number,
  page: number,
  limit: number,
): Promise<{ total: number; members: DownlineMember[] }> {
  const [rows, [count]] = await Promise.all([
    database.query<MemberRow>(
      `select user_id, full_name, level, state, status, created_at from users
        where referred_by = $1 and deleted_at is null order by user_id desc limit $2 offset $3`,
      [userId, limit, (page - 1) * limit],
    ),
    database.query<{ n: number | string }>('select count(*) as n from users where referred_by = $1 and deleted_at is null', [
      userId,
    ]),
  ]);
  return { total: Number(count.n), members: rows.map(toDownlineMember) };
}

export async function directReferralCount(database: Database, userId: number): Promise<number> {
  const [row] = await database.query<{ n: number | string }>(
    'select count(*) as n from users where referred_by = $1 and deleted_at is null',
    [userId],
  );
  return Number(row.n);
}

interface RefRow {
  user_id: number | string;
  full_name: string;
  level: number;
  referral_code: string;
  status: boolean;
}

/** Guards the walk up against a corrupted (cyclic) chain; real chains are far shorter. */
const MAX_UPLINE = 1000;

/**
 * The referrer, the referrer's referrer, … up to the root. A deleted referrer stays in the chain:
 * referrals keep their referrer (decisions.md), so the chain is the history of who brought whom.
 */
export async function upline(database: Database, userId: number) {
  const rows = await database.query<RefRow & { hop: number }>(
    `with recursive chain(user_id, hop) as (
        select referred_by, 1 from users where user_id = $1 and referred_by is not null
        union all
        select u.referred_by, c.hop + 1 from chain c join users u on u.user_id = c.user_id
         where u.referred_by is not null and c.hop < ${MAX_UPLINE}
      )
      select u.user_id, u.full_name, u.level, u.referral_code, u.status, c.hop
        from chain c join users u on u.user_id = c.user_id order by c.hop`,
    [userId],
  );
  return rows.map((r) => ({
    userId: Number(r.user_id),
    fullName: r.full_name,
    level: r.level,
    referralCode: r.referral_code,
    status: r.status,
  }));
}

/** How many members of a level the walk carries to the next one (see downlineTree). */
const WALK_WIDTH = 200;

/**
 * The network under a member, level by level, to `depth`: each level's count of live members
 * from the trigger-kept downline_counts (drizzle/0006), and its first `limit` live members. Those
 * come from a walk that carries at most WALK_WIDTH members (lowest ids first) of each level to
 * the next, through the (referred_by, user_id) index — so a network of 100,000 costs ten small
 * queries, not a walk of all of it. Up to WALK_WIDTH members on a level the first page is exact
 * (lowest ids); beyond, it is the first members found under the level above's first ones.
 * Deleted members are not counted but are walked through: their referrals stay in the network.
 */
export async function downlineTree(
  database: Database,
  userId: number,
  depth: number,
  limit: number,
): Promise<DownlineTree['levels']> {
  const counts = await database.query<{ depth: number; members: number | string }>(
    'select depth, members from downline_counts where ancestor_id = $1 and depth <= $2 and members > 0 order by depth',
    [userId, depth],
  );
  const levels: DownlineTree['levels'] = [];
  let frontier = [userId];
  for (const { depth: d, members } of counts) {
    while (levels.length + 1 < d && frontier.length > 0) {
      frontier = await nextLevel(database, frontier).then((rows) => rows.map((r) => Number(r.user_id)));
      levels.push({ depth: levels.length + 1, count: 0, members: [] });
    }
    const rows = await nextLevel(database, frontier);
    frontier = rows.map((r) => Number(r.user_id));
    levels.push({ depth: d, count: Number(members), members: rows.filter((r) => !r.deleted).slice(0, limit).map(toDownlineMember) });
  }
  return levels.filter((l) => l.count > 0);
}

function nextLevel(database: Database, parents: number[]) {
  return database.query<MemberRow & { deleted: boolean }>(
    `select user_id, full_name, level, state, status, created_at, deleted_at is not null as deleted
       from users where referred_by = any($1::int8[]) order by user_id limit ${WALK_WIDTH}`,
    [parents],
  );
}
