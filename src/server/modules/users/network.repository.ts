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
 * The whole network under a member, level by level, in one statement: a recursive walk down
 * users.referred_by (index users_referred_by_idx) carrying only ids, depth and liveness, then the count of
 * each level and its first `limit` members. A deleted member is not counted, but their referrals
 * still are: they keep their referrer (decisions.md).
 */
export async function downlineTree(
  database: Database,
  userId: number,
  depth: number,
  limit: number,
): Promise<DownlineTree['levels']> {
  const rows = await database.query<MemberRow & { depth: number; level_count: number | string }>(
    `with recursive tree(user_id, depth, live) as (
        select user_id, 1, deleted_at is null from users where referred_by = $1
        union all
        select u.user_id, t.depth + 1, u.deleted_at is null
          from tree t join users u on u.referred_by = t.user_id where t.depth < $2
      ),
      live as (select user_id, depth from tree where live),
      counts as (select depth, count(*) as level_count from live group by depth),
      firsts as (
        select user_id, depth from (
          select user_id, depth, row_number() over (partition by depth order by user_id) as rn from live
        ) ranked where rn <= $3
      )
      select c.depth, c.level_count, u.user_id, u.full_name, u.level, u.state, u.status, u.created_at
        from counts c
        join firsts f on f.depth = c.depth
        join users u on u.user_id = f.user_id
       order by c.depth, u.user_id`,
    [userId, depth, limit],
  );
  const levels = new Map<number, DownlineTree['levels'][number]>();
  for (const r of rows) {
    let level = levels.get(r.depth);
    if (!level) {
      level = { depth: r.depth, count: Number(r.level_count), members: [] };
      levels.set(r.depth, level);
    }
    level.members.push(toDownlineMember(r));
  }
  return [...levels.values()];
}
