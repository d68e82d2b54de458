import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { DownlineMember, DownlineTree, MemberRef, NetworkNode } from '../../../contract/network.ts';
import { rowsOf, type Database, type Db } from '../../db/client.ts';
import { iso, isoText, type Nullable } from '../../db/rows.ts';
import { users } from '../../db/schema/members.ts';

type UserColumns = typeof users.$inferSelect;

/** A member as a downline shows them (spec §3 Downline member), by the schema's column names. */
type MemberRow = Pick<UserColumns, 'userId' | 'fullName' | 'level' | 'state' | 'status' | 'createdAt'>;
/** A direct referral in the genealogy: the member, whether deleted, and their own direct referrals. */
type NodeRow = MemberRow & { deleted: boolean; directReferrals: number };
/** How many rows the page's statement counted, beside each row of the page. */
type Total = { total: number };

/** MemberRow's columns of the users row aliased `a`, for the raw statements below. */
const memberColumns = (a: string) =>
  `${a}.user_id as "userId", ${a}.full_name as "fullName", ${a}.level, ${a}.state, ${a}.status, ${a}.created_at as "createdAt"`;

export const toDownlineMember = (r: MemberRow): DownlineMember => ({
  fullName: r.fullName,
  userId: r.userId,
  level: r.level,
  state: r.state,
  status: r.status,
  createDate: iso(r.createdAt),
});

// Object.assign, not a spread: V8 copies a spread source through a slow path, per node of a tree.
const toNetworkNode = (r: NodeRow): NetworkNode => Object.assign(toDownlineMember(r), { deleted: r.deleted, directReferrals: r.directReferrals });

/** Staff (accounts that sign in) are not members (decisions.md): no downline counts or lists them. */
const liveReferralsOf = (userId: number) => and(eq(users.referredBy, userId), isNull(users.deletedAt), eq(users.canSignIn, false));

/**
 * Live members directly referred by this member, oldest first (lowest ids: the order of the
 * network view and the genealogy, issue 15), one page, with their total — or null when the member
 * is not a live one. One statement: the member, the count beside the page, left-joined so that a
 * page past the end still answers it. Count and page read users_referred_by_idx (the member's own
 * referrals only). Raw prepared statement: the benchmark measures this call.
 */
export async function directDownline(
  database: Database,
  userId: number,
  page: number,
  limit: number,
): Promise<{ total: number; members: DownlineMember[] } | null> {
  const rows = await database.query<Total & Nullable<MemberRow>>(
    `select (select count(*) from users where referred_by = $1 and deleted_at is null and not can_sign_in) as total, x.*
       from users r left join (
         select ${memberColumns('u')} from users u
          where u.referred_by = $1 and u.deleted_at is null and not u.can_sign_in order by u.user_id limit $2 offset $3
       ) x on true
      where r.user_id = $1 and r.deleted_at is null
      order by x."userId"`,
    [userId, limit, (page - 1) * limit],
  );
  if (rows.length === 0) return null;
  return {
    total: Number(rows[0].total),
    members: rows.filter((r): r is { total: number } & MemberRow => r.userId !== null).map(toDownlineMember),
  };
}

export async function directReferralCount(db: Db, userId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users).where(liveReferralsOf(userId));
  return row.n;
}

/**
 * One page of a member's direct referrals (deleted ones too), oldest first, each with the number
 * of their own direct referrals, and the total — in one statement. The children's ids are
 * collected through users_referred_by_idx first (materialized), so even a member with 100,000
 * direct referrals never makes the planner walk the primary key hoping to meet them; the counts
 * touch only the page's rows.
 */
export async function childrenPage(db: Db, userId: number, page: number, limit: number): Promise<{ total: number; nodes: NetworkNode[] }> {
  const rows = rowsOf<Total & Nullable<NodeRow>>(
    await db.execute(sql`
      with c as materialized (select user_id from users where referred_by = ${userId} and not can_sign_in)
      select t.total, x.* from (select count(*) as total from c) t
      left join lateral (
        select ${sql.raw(memberColumns('u'))}, u.deleted_at is not null as deleted,
               (select count(*) from users g where g.referred_by = u.user_id and not g.can_sign_in) as "directReferrals"
          from (select user_id from c order by user_id limit ${limit} offset ${(page - 1) * limit}) p
          join users u on u.user_id = p.user_id
      ) x on true
      order by x."userId"`),
  );
  const total = rows[0]?.total ?? 0;
  const nodes = rows.filter((r): r is { total: number } & NodeRow => r.userId !== null).map(toNetworkNode);
  return { total, nodes };
}

/** Any member, deleted or not: a deleted member's branch can still be opened. */
export async function memberExists(db: Db, userId: number): Promise<boolean> {
  const rows = await db.select({ userId: users.userId }).from(users).where(eq(users.userId, userId)).limit(1);
  return rows.length > 0;
}

/** Guards the walk up against a corrupted (cyclic) chain; real chains are far shorter. */
const MAX_UPLINE = 1000;

/**
 * The referrer, the referrer's referrer, … up to the root. A deleted referrer stays in the chain:
 * referrals keep their referrer (decisions.md), so the chain is the history of who brought whom.
 */
export async function upline(db: Db, userId: number): Promise<MemberRef[]> {
  const rows = rowsOf<Pick<UserColumns, 'userId' | 'fullName' | 'level' | 'referralCode' | 'status'>>(
    await db.execute(sql`
      with recursive chain(user_id, hop) as (
        select referred_by, 1 from users where user_id = ${userId} and referred_by is not null
        union all
        select u.referred_by, c.hop + 1 from chain c join users u on u.user_id = c.user_id
         where u.referred_by is not null and c.hop < ${sql.raw(String(MAX_UPLINE))}
      )
      select u.user_id as "userId", u.full_name as "fullName", u.level, u.referral_code as "referralCode", u.status
        from chain c join users u on u.user_id = c.user_id order by c.hop`),
  );
  return rows.map((r) => ({ userId: r.userId, fullName: r.fullName, level: r.level, referralCode: r.referralCode, status: r.status }));
}

/** A member of a level as the tree's statement sends it: [userId, fullName, level, state, status, createDate]. */
type LevelMemberJson = [number, string, number, string | null, boolean, string];
const fromLevelJson = ([userId, fullName, level, state, status, createDate]: LevelMemberJson): DownlineMember => ({
  fullName,
  userId,
  level,
  state,
  status,
  createDate,
});

/** The member's card and their levels as the tree's statement sends them: [depth, count, [member, …]]. */
type TreeRow = Pick<UserColumns, 'fullName' | 'level' | 'referralCode' | 'status'> & { levels: [number, number, LevelMemberJson[]][] };

/** `created_at` as ISO 8601 in UTC to the millisecond, as `iso` writes a Date (db/rows.ts). */
const ISO_CREATED = isoText('u.created_at');

/**
 * The network under a live member, level by level, to `depth`: each level's count of live members
 * and its first `limit` live members (lowest ids), both from the trigger-kept downline_counts
 * (drizzle/functions/downline_counts.sql) — one index read and `limit` rows a level, whatever the
 * network's size — with the member's own card; null when the member is not a live one.
 * Deleted members are not counted or shown, but their referrals stay in the network.
 * One statement and one row: the levels come as one JSON array (a level: [depth, count,
 * [member, …]]), because on PGlite each row returned costs far more than building it (issue 23:
 * 156 rows took 1.6 ms there, the same as JSON 0.7 ms). Raw prepared statement: the benchmark
 * measures this call.
 */
export async function downlineTree(
  database: Database,
  userId: number,
  depth: number,
  limit: number,
): Promise<{ member: Pick<MemberRef, 'fullName' | 'level' | 'referralCode' | 'status'>; levels: DownlineTree['levels'] } | null> {
  const [row] = await database.query<TreeRow>(
    `select r.full_name as "fullName", r.level, r.referral_code as "referralCode", r.status,
            (select coalesce(json_agg(json_build_array(d.depth, d.members,
                      (select coalesce(json_agg(json_build_array(u.user_id, u.full_name, u.level, u.state, u.status, ${ISO_CREATED})
                                                order by u.user_id), '[]')
                         from (select u.user_id, u.full_name, u.level, u.state, u.status, u.created_at
                                 from users u where u.user_id = any(d.first_members) and u.deleted_at is null and not u.can_sign_in
                                order by u.user_id limit $3) u)) order by d.depth), '[]')
               from downline_counts d where d.ancestor_id = r.user_id and d.depth <= $2 and d.members > 0) as levels
       from users r where r.user_id = $1 and r.deleted_at is null`,
    [userId, depth, limit],
  );
  if (!row) return null;
  const { levels: levelsJson, ...member } = row;
  const levels: DownlineTree['levels'] = levelsJson.map(([d, count, members]) => ({ depth: d, count, members: members.map(fromLevelJson) }));
  // So many of a level's first 100 were deleted that the page came up short: walk for it instead.
  const short = levels.some((l) => l.members.length < Math.min(limit, l.count));
  return { member, levels: short ? await walkedTree(database, userId, depth, limit, levels) : levels };
}

/** A member the fallback walk found, with the level it is on. */
type WalkedRow = MemberRow & { depth: number };

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
  const members = await database.query<WalkedRow>(
    `with recursive walk(depth, ids) as (
       select 0, array[$1::int8]
       union all
       select w.depth + 1,
              array(select u.user_id from users u where u.referred_by = any(w.ids) and not u.can_sign_in order by u.user_id limit ${WALK_WIDTH})
         from walk w where w.depth < $2 and cardinality(w.ids) > 0
     )
     select w.depth, ${memberColumns('m')}
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
