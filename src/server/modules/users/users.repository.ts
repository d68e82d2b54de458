import { and, eq, isNull, ne, or, sql } from 'drizzle-orm';
import type { User, UserSort, UserSortKey } from '../../../contract/users.ts';
import { rowsOf, type Database, type Db } from '../../db/client.ts';
import { memberSearchMatch } from '../../db/member-search.ts';
import { iso, paramSql, type CountRow } from '../../db/rows.ts';
import { orderSql } from '../../lib/order.ts';
import { ranks } from '../../db/schema/catalogue.ts';
import { users } from '../../db/schema/members.ts';
import type { searchCounts, userSegments } from '../../db/schema/system.ts';

export type NewUser = Omit<typeof users.$inferInsert, 'userId' | 'referralCode'>;

/** A member's own referral code, derived from the user id so it is unique and stable. */
export function referralCodeFor(userId: number): string {
  return `BO${userId}`;
}

/** The next user id, taken from the sequence. */
type NextIdRow = { id: UserColumns['userId'] };
type UserId = Pick<UserColumns, 'userId'>;
type KeptCount = Pick<typeof searchCounts.$inferSelect, 'matches'>;
/** A page of the member list: each row with the count (`total`), and the kept count of a frequent search. */
type UserPageRow = UserRow & { total: number | string | null; kept?: KeptCount['matches'] | string | null };
/** What a bulk status change finds of each id. */
type StatusRow = Pick<UserColumns, 'userId' | 'canSignIn' | 'status'> & { live: boolean };

/** Inserts a member or account with its id and referral code taken in one statement. */
export async function insertUser(db: Db, values: NewUser): Promise<typeof users.$inferSelect> {
  const [{ id: userId }] = rowsOf<NextIdRow>(
    await db.execute(sql`select nextval(pg_get_serial_sequence('users', 'user_id')) as id`),
  );
  const [row] = await db.insert(users).values({ ...values, userId, referralCode: referralCodeFor(userId) }).returning();
  return row;
}

type UserColumns = typeof users.$inferSelect;

/**
 * A member as every user call reads it: the columns of spec §3 User (typed from the schema) with
 * the role, referrer and rank names joined in, as the list and findUser read them (raw SQL: both
 * are on every member screen's path).
 */
export type UserRow = Pick<
  UserColumns,
  | 'userId' | 'fullName' | 'email' | 'phone' | 'address' | 'companyName' | 'status' | 'lastLogin' | 'referredBy'
  | 'rankId' | 'level' | 'dob' | 'whatsapp' | 'image' | 'state' | 'referralCode' | 'createdAt'
> & { role: string; referrerName: string | null; rank: string | null };

/**
 * UserRow's columns of `users u` in SQL. The role, referrer and rank names are looked up row by
 * row (each by its primary key, at most one row): planned as three one-table lookups instead of a
 * four-way join, which is most of what planning a page costs (issue 23).
 */
const USER_COLUMNS = `
  u.user_id as "userId", u.full_name as "fullName", u.email, u.phone, u.address, u.company_name as "companyName",
  coalesce((select ro.name from roles ro where ro.role_id = u.role_id), 'User') as role, u.status,
  u.last_login as "lastLogin", u.referred_by as "referredBy",
  (select ref.full_name from users ref where ref.user_id = u.referred_by) as "referrerName",
  (select rk.name from ranks rk where rk.rank_id = u.rank_id) as rank, u.rank_id as "rankId", u.level, u.dob::text as dob,
  u.whatsapp, u.image, u.state, u.referral_code as "referralCode", u.created_at as "createdAt"`;

export function toUser(r: UserRow): User {
  return {
    _id: String(r.userId),
    userId: r.userId,
    fullName: r.fullName,
    email: r.email,
    phone: r.phone,
    address: r.address,
    companyName: r.companyName,
    role: r.role,
    status: r.status,
    lastLogin: r.lastLogin ? iso(r.lastLogin) : 'Never',
    referredBy: r.referredBy,
    referrerName: r.referrerName,
    rank: r.rank,
    rankId: r.rankId,
    level: r.level,
    dob: r.dob,
    whatsapp: r.whatsapp,
    image: r.image,
    state: r.state,
    referralCode: r.referralCode,
    createdAt: iso(r.createdAt),
  };
}

/**
 * The users list's orders (contract USER_SORT_KEYS), each with the user id as tie-break so pages
 * never repeat or skip a member. Every one is served by an index on (column, user_id) of live
 * members (db/schema/members.ts); names sort case-blind.
 */
const SORT_COLUMNS: Record<UserSortKey, string> = {
  userId: 'u.user_id',
  createdAt: 'u.created_at',
  fullName: 'lower(u.full_name)',
  email: 'u.email',
  status: 'u.status',
  level: 'u.level',
};
/** What the materialized matches of a search carry so that they can be sorted by any key. */
const SORT_CARRY = 'u.user_id, u.created_at, u.full_name, u.email, u.status, u.level';

export interface UserFilter {
  rankId?: number;
  level?: number;
  search?: string;
  sort: UserSort;
  page: number;
  limit: number;
}

/**
 * The same orders on the page's output columns (the statement's outer ORDER BY): the rows come
 * back joined to their total, and only an ORDER BY at the top decides their order.
 */
const PAGE_SORT_COLUMNS: Record<UserSortKey, string> = {
  userId: 'x."userId"',
  createdAt: 'x."createdAt"',
  fullName: 'lower(x."fullName")',
  email: 'x.email',
  status: 'x.status',
  level: 'x.level',
};

/**
 * Without a search, the total comes from the trigger-kept counters (drizzle/functions/stat_counters.sql, user_segments.sql): the
 * whole table, or the level/rank cells that match — never a count over a million rows. A scalar
 * subquery of the page's statement; `arg` binds the values.
 */
function segmentTotalSql(f: UserFilter, arg: (v: unknown) => string): string {
  if (f.level === undefined && f.rankId === undefined) {
    return `select coalesce(sum(value), 0)::int8 from stat_counters where name = 'users_total'`;
  }
  const where = [
    ...(f.level === undefined ? [] : [`level = ${arg(f.level)}`]),
    ...(f.rankId === undefined ? [] : [`rank_key = ${arg(f.rankId)}`]),
  ];
  return `select coalesce(sum(live), 0)::int8 from user_segments where ${where.join(' and ')}`;
}

/** From this many matches on, a search's count is kept in search_counts (drizzle/functions/search_counts.sql). */
export const SEARCH_COUNT_MIN = 1000;
const SEARCH_COUNT_FRESH = `counted_at > now() - interval '10 minutes'`;
const KEPT_COUNT_SQL = `select matches from search_counts
  where term = $1 and level_key = $2 and rank_key = $3 and ${SEARCH_COUNT_FRESH}`;
/** KEPT_COUNT_SQL as a scalar subquery of the page's statement, its key bound by `arg`. */
const keptCountSql = (key: unknown[], arg: (v: unknown) => string) =>
  `select matches from search_counts
    where term = ${arg(key[0])} and level_key = ${arg(key[1])} and rank_key = ${arg(key[2])} and ${SEARCH_COUNT_FRESH}`;

/**
 * Counts a frequent search and keeps the count. The lock waits for every transaction that has
 * written members meanwhile (their triggers update search_counts) and holds off new ones until the
 * count is stored, so the triggers then keep it exact. Counts older than ten minutes are recounted
 * (and unused ones dropped), which also bounds any drift.
 */
async function keepSearchCount(database: Database, key: unknown[], countSql: string, countParams: unknown[]): Promise<number> {
  return database.db.transaction(async (tx) => {
    await tx.execute(sql`lock table search_counts in share row exclusive mode`);
    const [kept] = rowsOf<KeptCount>(await tx.execute(paramSql(KEPT_COUNT_SQL, key)));
    if (kept) return Number(kept.matches);
    const [{ n }] = rowsOf<CountRow>(await tx.execute(paramSql(countSql, countParams)));
    await tx.execute(sql.raw(`delete from search_counts where not (${SEARCH_COUNT_FRESH})`));
    await tx.execute(sql`insert into search_counts (term, level_key, rank_key, matches) values (${key[0]}, ${key[1]}, ${key[2]}, ${Number(n)})
      on conflict (term, level_key, rank_key) do update set matches = excluded.matches, counted_at = now()`);
    return Number(n);
  });
}

/**
 * Searches this process has seen with a kept count (≥ SEARCH_COUNT_MIN matches), most recent
 * last: only a hint for the page's plan, so that a frequent search reads its page and its kept
 * count at once instead of collecting every match. A stale hint costs speed, never correctness.
 */
const frequentSearches = new Map<string, true>();
function rememberFrequent(key: string) {
  frequentSearches.delete(key);
  frequentSearches.set(key, true);
  if (frequentSearches.size > 1000) frequentSearches.delete(frequentSearches.keys().next().value!);
}

/**
 * One page of live members and the count of all matches, in one statement: the page's rows each
 * carry the total, and a page past the end still answers one row (the total, no member). Each
 * condition has its index: level and rank (btree with user_id), name (trigram), email and phone
 * (prefix), user id (primary key). The total is never a count over the whole table:
 * - no search: the trigger-kept counters (segmentTotalSql);
 * - a search not known to be frequent: its (index-found) matches are collected once, then both
 *   counted and sorted for the page, so the planner never walks the whole primary key backwards
 *   hoping to meet a rare match;
 * - a frequent search (this process has seen ≥ SEARCH_COUNT_MIN matches): its kept count beside a
 *   page that walks the sort order, as a match turns up every few rows. Only when the kept count
 *   has gone stale (ten minutes) is it counted again and kept, by a second statement.
 */
/** The list's filter on `users u`: live members, never staff, at the level and rank, matching the search. */
export type MemberFilter = Pick<UserFilter, 'rankId' | 'level' | 'search'>;

/**
 * The members a filter means, as SQL on `users u` with its values bound by `arg`. Staff (accounts
 * that sign in to the panel) are not members (decisions.md): never listed, counted or exported
 * here. The sort indexes' predicate is this pair (drizzle/0028), so they stay index-only.
 */
function memberWhere(f: MemberFilter, arg: (v: unknown) => string): string {
  const where = ['u.deleted_at is null', 'not u.can_sign_in'];
  if (f.rankId !== undefined) where.push(`u.rank_id = ${arg(f.rankId)}`);
  if (f.level !== undefined) where.push(`u.level = ${arg(f.level)}`);
  const term = f.search?.toLowerCase();
  if (term) where.push(memberSearchMatch(term, arg));
  return where.join(' and ');
}

/** A statement's parameters and the `arg` that adds one and answers its placeholder. */
function binder() {
  const params: unknown[] = [];
  const arg = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  return { params, arg };
}

export async function listUsers(database: Database, f: UserFilter): Promise<{ users: User[]; total: number }> {
  const { params, arg } = binder();
  const term = f.search?.toLowerCase();
  const filter = memberWhere(f, arg);
  const countSql = `select count(*) as n from users u where ${filter}`;
  const countParams = [...params];
  const searchKey = [term, f.level ?? 0, f.rankId ?? 0];
  const hintKey = JSON.stringify(searchKey);
  const frequent = term !== undefined && frequentSearches.has(hintKey);
  const order = (alias: string) => orderSql(f.sort, SORT_COLUMNS, 'u.user_id').replaceAll('u.', `${alias}.`);
  const window = () => `limit ${arg(f.limit)} offset ${arg((f.page - 1) * f.limit)}`;
  // Page ids first, then the columns for just those rows: a deep page skips ids, not looked-up rows.
  const page = (ids: string) => `select ${USER_COLUMNS} from (${ids}) p join users u on u.user_id = p.user_id`;
  const pageOrder = orderSql(f.sort, PAGE_SORT_COLUMNS, 'x."userId"');
  let text: string;
  if (term && !frequent) {
    const kept = keptCountSql(searchKey, arg);
    text = `with m as materialized (select ${SORT_CARRY} from users u where ${filter})
      select (select count(*) from m) as total, (${kept}) as kept, x.*
        from (select 1) o left join (${page(`select m.user_id from m order by ${order('m')} ${window()}`)}) x on true
       order by ${pageOrder}`;
  } else {
    const total = term ? keptCountSql(searchKey, arg) : segmentTotalSql(f, arg);
    text = `select (${total}) as total, x.*
        from (select 1) o left join (${page(`select u.user_id from users u where ${filter} order by ${order('u')} ${window()}`)}) x on true
       order by ${pageOrder}`;
  }
  const rows = await database.query<UserPageRow>(text, params);
  const members = rows.filter((r) => r.userId !== null).map(toUser);
  const first = rows[0];
  if (!term) return { users: members, total: Number(first.total) };
  if (frequent && first.total !== null) {
    rememberFrequent(hintKey);
    return { users: members, total: Number(first.total) };
  }
  if (frequent) {
    // Its kept count went stale (ten minutes): recount and keep it at once (one count of every
    // match, not two); a search that has become rare stops being treated as frequent.
    const total = await keepSearchCount(database, searchKey, countSql, countParams);
    if (total < SEARCH_COUNT_MIN) frequentSearches.delete(hintKey);
    return { users: members, total };
  }
  // A search just counted with its page (not known to be frequent).
  const counted = Number(first.total);
  if (counted < SEARCH_COUNT_MIN) {
    frequentSearches.delete(hintKey);
    return { users: members, total: counted };
  }
  rememberFrequent(hintKey);
  if (first.kept != null) return { users: members, total: Number(first.kept) };
  return { users: members, total: await keepSearchCount(database, searchKey, countSql, countParams) };
}

/**
 * The keyset order of a filter's members (user id, ascending) written so the planner walks the
 * filter's own index: with a level (or rank) filter, `column = any(array[v])` and ordered by
 * (column, user_id), so users_level_idx / users_rank_idx serve both the filter and the order
 * from the cursor on. Written as a plain `=`, the planner knows the column is constant, walks the
 * primary key instead and, where the level's members sit in one id range, reads half a million
 * rows to find none (EXPLAIN at 1,000,000 members: 186–461 ms a batch, against 0.04–3 ms).
 */
function keysetFilter(f: MemberFilter, arg: (v: unknown) => string): { where: string; order: string } {
  const led = f.level !== undefined ? { column: 'u.level', value: f.level } : f.rankId !== undefined ? { column: 'u.rank_id', value: f.rankId } : null;
  const rest = led?.column === 'u.level' ? { ...f, level: undefined } : led ? { ...f, rankId: undefined } : f;
  const where = memberWhere(rest, arg);
  if (!led) return { where, order: 'u.user_id' };
  return { where: `${where} and ${led.column} = any(array[${arg(led.value)}::int])`, order: `${led.column}, u.user_id` };
}

/**
 * The ids of the members the filter matches, lowest first, at most `cap` + 1 (so the caller knows
 * there are more): only ids, never the rows, through the filter's own index (keysetFilter).
 */
export async function memberIds(database: Database, f: MemberFilter, cap: number): Promise<number[]> {
  const { params, arg } = binder();
  const { where, order } = keysetFilter(f, arg);
  const rows = await database.query<UserId>(
    `select u.user_id as "userId" from users u where ${where} order by ${order} limit ${arg(cap + 1)}`, params);
  return rows.map((r) => Number(r.userId));
}

/**
 * One batch of the members export: the filter's members after `afterId`, by user id (keyset: each
 * batch starts where the last ended, on the primary key or the filter's (level|rank, user_id) index).
 */
export async function membersBatch(database: Database, f: MemberFilter, afterId: number, limit: number): Promise<User[]> {
  const { params, arg } = binder();
  const { where, order } = keysetFilter(f, arg);
  const rows = await database.query<UserRow>(
    `select ${USER_COLUMNS} from users u where ${where} and u.user_id > ${arg(afterId)} order by ${order} limit ${arg(limit)}`, params);
  return rows.map(toUser);
}

/** What a bulk status change finds of each id: whether it is a live member, staff, and its status. */
export async function statusOf(db: Db, ids: number[]): Promise<{ userId: number; canSignIn: boolean; live: boolean; status: boolean }[]> {
  const rows = rowsOf<StatusRow>(await db.execute(sql`
    select user_id as "userId", can_sign_in as "canSignIn", deleted_at is null as live, status
      from users where user_id = any(${`{${ids.join(',')}}`}::int8[])`));
  return rows.map((r) => ({ ...r, userId: Number(r.userId) }));
}

/**
 * Sets the status of the live members (never staff) among `ids` that do not have it yet, and
 * answers the ids it changed. Concurrent runs on the same members are safe: the second waits on
 * the first's row locks, then re-checks `status <> $status` and leaves the rows it finds done.
 */
export async function setMembersStatus(db: Db, ids: number[], status: boolean): Promise<number[]> {
  const rows = rowsOf<UserId>(await db.execute(sql`
    update users set status = ${status}, updated_at = now()
     where user_id = any(${`{${ids.join(',')}}`}::int8[]) and deleted_at is null and not can_sign_in and status <> ${status}
     returning user_id as "userId"`));
  return rows.map((r) => Number(r.userId));
}

/** The levels live members hold, from the trigger-kept user_segments (a few rows, never the table). */
export async function memberLevels(database: Database): Promise<number[]> {
  const rows = await database.query<Pick<typeof userSegments.$inferSelect, 'level'>>('select distinct level from user_segments where live > 0 order by level');
  return rows.map((r) => r.level);
}

/**
 * A live member, or null (a soft-deleted member is gone for every reader). A raw prepared
 * statement: every member call (the measured downline and tree included) starts with it.
 */
export async function findUser(database: Database, userId: number): Promise<User | null> {
  const [row] = await database.query<UserRow>(
    `select ${USER_COLUMNS} from users u where u.user_id = $1 and u.deleted_at is null`,
    [userId],
  );
  return row ? toUser(row) : null;
}

/** The live member a referral code names: their own code (any case) or their user id (never staff). */
export async function findReferrer(db: Db, code: string): Promise<{ userId: number; level: number } | null> {
  const trimmed = code.trim();
  const named = /^\d{1,15}$/.test(trimmed) ? eq(users.userId, Number(trimmed)) : eq(users.referralCode, trimmed.toUpperCase());
  const [row] = await db.select({ userId: users.userId, level: users.level }).from(users)
    .where(and(named, isNull(users.deletedAt), eq(users.canSignIn, false)));
  return row ?? null;
}

/** Which of the email and phone another live member already uses, as a message; null when free. */
export async function contactTaken(
  db: Db,
  contact: { email?: string; phone?: string },
  exceptUserId?: number,
): Promise<string | null> {
  const email = contact.email ?? null;
  const phone = contact.phone ?? null;
  const [row] = await db
    .select({
      emailTaken: sql<boolean>`coalesce(bool_or(${users.email} = ${email}), false)`,
      phoneTaken: sql<boolean>`coalesce(bool_or(${users.phone} = ${phone}), false)`,
    })
    .from(users)
    .where(and(isNull(users.deletedAt), or(sql`${users.email} = ${email}`, sql`${users.phone} = ${phone}`), ne(users.userId, exceptUserId ?? 0)));
  if (row?.emailTaken) return 'A member with this email already exists';
  if (row?.phoneTaken) return 'A member with this phone number already exists';
  return null;
}

export async function rankExists(db: Db, rankId: number): Promise<boolean> {
  const rows = await db.select({ rankId: ranks.rankId }).from(ranks).where(eq(ranks.rankId, rankId)).limit(1);
  return rows.length > 0;
}

/** The member's row flags the member routes check: whether it signs in to the panel. */
export async function signsIn(db: Db, userId: number): Promise<boolean> {
  const [row] = await db.select({ canSignIn: users.canSignIn }).from(users).where(and(eq(users.userId, userId), isNull(users.deletedAt)));
  return row?.canSignIn === true;
}

export type MemberChanges = Partial<Pick<typeof users.$inferInsert, 'fullName' | 'dob' | 'email' | 'phone' | 'whatsapp' | 'image' | 'status' | 'rankId' | 'address' | 'companyName'>>;

/** Changes a live member (never an account that signs in); null when there is none any more. */
export async function updateMember(db: Db, userId: number, changes: MemberChanges): Promise<UserColumns | null> {
  const [row] = await db
    .update(users)
    .set({ ...changes, updatedAt: new Date() })
    .where(and(eq(users.userId, userId), isNull(users.deletedAt), eq(users.canSignIn, false)))
    .returning();
  return row ?? null;
}

/** Soft-deletes a live member (never an account that signs in); false when there is none any more. */
export async function softDeleteMember(db: Db, userId: number): Promise<boolean> {
  const gone = await db
    .update(users)
    .set({ deletedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(users.userId, userId), isNull(users.deletedAt), eq(users.canSignIn, false)))
    .returning({ userId: users.userId });
  return gone.length > 0;
}
