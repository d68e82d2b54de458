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

/**
 * The network under a member, level by level, to `depth`: each level's count of live members and
 * its first `limit` live members (lowest ids), both from the trigger-kept downline_counts
 * (drizzle/0006, 0008) — one index read and `limit` rows a level, whatever the network's size.
 * Deleted members are not counted or shown, but their referrals stay in the network.
 */
export async function downlineTree(
  database: Database,
  userId: number,
  depth: number,
  limit: number,
): Promise<DownlineTree['levels']> {
  const rows = await database.query<Partial<MemberRow> & { depth: number; members: number | string; listed: number }>(
    `select d.depth, d.members, cardinality(d.first_members) as listed,
            m.user_id, m.full_name, m.level, m.state, m.status, m.created_at
       from downline_counts d
       left join lateral (
         select u.user_id, u.full_name, u.level, u.state, u.status, u.created_at
           from users u where u.user_id = any(d.first_members) and u.deleted_at is null
          order by u.user_id limit $3
       ) m on true
      where d.ancestor_id = $1 and d.depth <= $2 and d.members > 0
      order by d.depth, m.user_id`,
    [userId, depth, limit],
  );
  const levels: DownlineTree['levels'] = [];
  for (const r of rows) {
    let level = levels.at(-1);
    if (level?.depth !== r.depth) {
      level = { depth: r.depth, count: Number(r.members), members: [] };
      levels.push(level);
    }
    if (r.user_id != null) level.members.push(toDownlineMember(r as MemberRow));
  }
  // So many of a level's first 100 were deleted that the page came up short: walk for it instead.
  const short = levels.some((l) => l.members.length < Math.min(limit, l.count));
  return short ? walkedTree(database, userId, depth, limit, levels) : levels;
}

/** How many members of a level the fallback walk carries to the next one. */
const WALK_WIDTH = 200;

/**
 * The fallback: a walk, in one statement, that carries at most WALK_WIDTH members (lowest ids
 * first) of each level to the next through the (referred_by, user_id) index, then shows the
 * first `limit` live ones of each level. Up to WALK_WIDTH members on a level it is exact; beyond,
 * it is the first members found under the level above's first ones.
 */
async function walkedTree(
  database: Database,
  userId: number,
  depth: number,
  limit: number,
  counted: DownlineTree['levels'],
): Promise<DownlineTree['levels']> {
  const members = await database.query<MemberRow & { depth: number }>(
    `with recursive walk(depth, ids) as (
       select 0, array[$1::int8]
       union all
       select w.depth + 1,
              array(select u.user_id from users u where u.referred_by = any(w.ids) order by u.user_id limit ${WALK_WIDTH})
         from walk w where w.depth < $2 and cardinality(w.ids) > 0
     )
     select w.depth, m.user_id, m.full_name, m.level, m.state, m.status, m.created_at
       from walk w cross join lateral (
         select u.user_id, u.full_name, u.level, u.state, u.status, u.created_at
           from users u where u.user_id = any(w.ids) and u.deleted_at is null
          order by u.user_id limit $3
       ) m
      where w.depth > 0
      order by w.depth, m.user_id`,
    [userId, depth, limit],
  );
  return counted.map((l) => ({ ...l, members: members.filter((m) => m.depth === l.depth).map(toDownlineMember) }));
}
