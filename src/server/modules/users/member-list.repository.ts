import { sql } from 'drizzle-orm';
import type { User, UserSort, UserSortKey } from '../../../contract/users.ts';
import { rowsOf, type Database } from '../../db/client.ts';
import { memberSearchMatch } from '../../db/member-search.ts';
import { paramSql, type CountRow } from '../../db/rows.ts';
import { orderSql } from '../../lib/order.ts';
import type { searchCounts } from '../../db/schema/system.ts';
import { toUser, USER_COLUMNS, type UserId, type UserRow } from './users.repository.ts';

/**
 * The member list (spec §7 getAllusers) and its exports: sorts, filters, search with kept counts
 * of frequent searches, keyset batches; hot paths the benchmark measures, in prepared raw SQL.
 */

type KeptCount = Pick<typeof searchCounts.$inferSelect, 'matches'>;
/** A page of the member list: each row with the count (`total`), and the kept count of a frequent search. */
type UserPageRow = UserRow & { total: number | string | null; kept?: KeptCount['matches'] | string | null };

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
