import { sql } from 'drizzle-orm';
import type { User, UserSort } from '../../../contract/users.ts';
import { rowsOf, type Database, type Db } from '../../db/client.ts';
import { users } from '../../db/schema/members.ts';

export type NewUser = Omit<typeof users.$inferInsert, 'userId' | 'referralCode'>;

/** A member's own referral code, derived from the user id so it is unique and stable. */
export function referralCodeFor(userId: number): string {
  return `BO${userId}`;
}

/** Inserts a member or account with its id and referral code taken in one statement. */
export async function insertUser(db: Db, values: NewUser): Promise<typeof users.$inferSelect> {
  const [{ id }] = rowsOf<{ id: number | string }>(
    await db.execute(sql`select nextval(pg_get_serial_sequence('users', 'user_id')) as id`),
  );
  const userId = Number(id);
  const [row] = await db.insert(users).values({ ...values, userId, referralCode: referralCodeFor(userId) }).returning();
  return row;
}

/** The columns of spec §3 User, with the role, referrer and rank names joined in. */
const USER_COLUMNS = `
  u.user_id, u.full_name, u.email, u.phone, u.address, u.company_name, coalesce(ro.name, 'User') as role,
  u.status, u.last_login, u.referred_by, ref.full_name as referrer_name, rk.name as rank, u.rank_id, u.level,
  u.dob::text as dob, u.whatsapp, u.image, u.state, u.referral_code, u.created_at`;
const USER_JOINS = `
  left join roles ro on ro.role_id = u.role_id
  left join users ref on ref.user_id = u.referred_by
  left join ranks rk on rk.rank_id = u.rank_id`;

export interface UserRow {
  user_id: number | string;
  full_name: string;
  email: string;
  phone: string;
  address: string | null;
  company_name: string | null;
  role: string;
  status: boolean;
  last_login: Date | string | null;
  referred_by: number | string | null;
  referrer_name: string | null;
  rank: string | null;
  rank_id: number | null;
  level: number;
  dob: string | null;
  whatsapp: string | null;
  image: string | null;
  state: string | null;
  referral_code: string;
  created_at: Date | string;
}

export const iso = (v: Date | string) => (v instanceof Date ? v : new Date(v)).toISOString();

export function toUser(r: UserRow): User {
  const userId = Number(r.user_id);
  return {
    _id: String(userId),
    userId,
    fullName: r.full_name,
    email: r.email,
    phone: r.phone,
    address: r.address,
    companyName: r.company_name,
    role: r.role,
    status: r.status,
    lastLogin: r.last_login ? iso(r.last_login) : 'Never',
    referredBy: r.referred_by == null ? null : Number(r.referred_by),
    referrerName: r.referrer_name,
    rank: r.rank,
    rankId: r.rank_id,
    level: r.level,
    dob: r.dob,
    whatsapp: r.whatsapp,
    image: r.image,
    state: r.state,
    referralCode: r.referral_code,
    createdAt: iso(r.created_at),
  };
}

/** Escapes LIKE wildcards so a search term matches literally. */
export const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

const ORDER: Record<UserSort, string> = {
  '-userId': 'u.user_id desc',
  userId: 'u.user_id asc',
  '-createdAt': 'u.created_at desc, u.user_id desc',
  createdAt: 'u.created_at asc, u.user_id asc',
};

export interface UserFilter {
  rankId?: number;
  level?: number;
  search?: string;
  sort: UserSort;
  page: number;
  limit: number;
}

/**
 * Without a search, the total comes from the trigger-kept counters (drizzle/0001 and 0003): the
 * whole table, or the level/rank cells that match — never a count over a million rows.
 */
function countBySegment(database: Database, f: UserFilter) {
  if (f.level === undefined && f.rankId === undefined) {
    return database.query<{ n: number | string }>(`select value as n from stat_counters where name = 'users_total'`);
  }
  return database.query<{ n: number | string }>(
    `select coalesce(sum(live), 0) as n from user_segments
      where ($1::int is null or level = $1) and ($2::int is null or rank_key = $2)`,
    [f.level ?? null, f.rankId ?? null],
  );
}

/** From this many matches on, a search's count is kept in search_counts (drizzle/0009). */
export const SEARCH_COUNT_MIN = 1000;
const SEARCH_COUNT_FRESH = `counted_at > now() - interval '10 minutes'`;
const KEPT_COUNT_SQL = `select matches from search_counts
  where term = $1 and level_key = $2 and rank_key = $3 and ${SEARCH_COUNT_FRESH}`;

/** A frequent search's kept count, while fresh; null for any other search. */
async function keptSearchCount(database: Database, key: unknown[]): Promise<number | null> {
  const [row] = await database.query<{ matches: number | string }>(KEPT_COUNT_SQL, key);
  return row ? Number(row.matches) : null;
}

/**
 * Counts a frequent search and keeps the count. The lock waits for every transaction that has
 * written members meanwhile (their triggers update search_counts) and holds off new ones until the
 * count is stored, so the triggers then keep it exact. Counts older than ten minutes are recounted
 * (and unused ones dropped), which also bounds any drift.
 */
async function keepSearchCount(database: Database, key: unknown[], countSql: string, countParams: unknown[]): Promise<number> {
  return database.transaction(async (query) => {
    await query('lock table search_counts in share row exclusive mode');
    const [kept] = await query<{ matches: number | string }>(KEPT_COUNT_SQL, key);
    if (kept) return Number(kept.matches);
    const [{ n }] = await query<{ n: number | string }>(countSql, countParams);
    await query(`delete from search_counts where not (${SEARCH_COUNT_FRESH})`);
    await query(
      `insert into search_counts (term, level_key, rank_key, matches) values ($1, $2, $3, $4)
       on conflict (term, level_key, rank_key) do update set matches = excluded.matches, counted_at = now()`,
      [...key, n],
    );
    return Number(n);
  });
}

/**
 * Searches this process has seen with a kept count (≥ SEARCH_COUNT_MIN matches), most recent
 * last: only a hint for the page's plan, so that a frequent search reads its page and its kept
 * count at once instead of one after the other. A stale hint costs speed, never correctness.
 */
const frequentSearches = new Map<string, true>();
function rememberFrequent(key: string) {
  frequentSearches.delete(key);
  frequentSearches.set(key, true);
  if (frequentSearches.size > 1000) frequentSearches.delete(frequentSearches.keys().next().value!);
}

/**
 * One page of live members and the count of all matches. Each condition has its index: level and
 * rank (btree with user_id), name (trigram), email and phone (prefix), user id (primary key).
 */
export async function listUsers(database: Database, f: UserFilter): Promise<{ users: User[]; total: number }> {
  const where = ['u.deleted_at is null'];
  const params: unknown[] = [];
  const arg = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  if (f.rankId !== undefined) where.push(`u.rank_id = ${arg(f.rankId)}`);
  if (f.level !== undefined) where.push(`u.level = ${arg(f.level)}`);
  const term = f.search?.toLowerCase();
  if (term) {
    // member_search_match (drizzle/0009) must say the same: the kept counts follow it.
    const any = [`lower(u.full_name) like ${arg(`%${likeEscape(term)}%`)}`, `u.email like ${arg(`${likeEscape(term)}%`)}`];
    if (/^\+?\d+$/.test(term)) any.push(`u.phone like ${arg(`${likeEscape(term)}%`)}`);
    if (/^\d{1,15}$/.test(term)) any.push(`u.user_id = ${arg(Number(term))}`);
    where.push(`(${any.join(' or ')})`);
  }
  const filter = where.join(' and ');
  const countSql = `select count(*) as n from users u where ${filter}`;
  const countParams = [...params];
  const searchKey = [term, f.level ?? 0, f.rankId ?? 0];
  const order = (alias: string) => ORDER[f.sort].replaceAll('u.', `${alias}.`);
  const window = `limit ${arg(f.limit)} offset ${arg((f.page - 1) * f.limit)}`;
  // Page ids first, then the joins for just those 25 rows: a deep page skips ids, not joined rows.
  // A search not known to be frequent collects its (index-found) matches before sorting, so the
  // planner never walks the whole primary key backwards hoping to meet a rare match; a frequent
  // one walks it in order, as a match turns up every few rows. Both give the same rows.
  const hintKey = JSON.stringify(searchKey);
  const frequent = term !== undefined && frequentSearches.has(hintKey);
  const pageIds = term && !frequent
    ? `with m as materialized (select u.user_id, u.created_at from users u where ${filter})
       select m.user_id from m order by ${order('m')} ${window}`
    : `select u.user_id from users u where ${filter} order by ${order('u')} ${window}`;
  const [rows, total] = await Promise.all([
    database.query<UserRow>(
      `select ${USER_COLUMNS} from (${pageIds}) p join users u on u.user_id = p.user_id ${USER_JOINS} order by ${order('u')}`,
      params,
    ),
    (async () => {
      if (!term) return countBySegment(database, f).then(([c]) => Number(c?.n ?? 0));
      const kept = await keptSearchCount(database, searchKey);
      if (kept !== null) {
        rememberFrequent(hintKey);
        return kept;
      }
      const [c] = await database.query<{ n: number | string }>(countSql, countParams);
      const n = Number(c?.n ?? 0);
      if (n < SEARCH_COUNT_MIN) {
        frequentSearches.delete(hintKey);
        return n;
      }
      rememberFrequent(hintKey);
      return keepSearchCount(database, searchKey, countSql, countParams);
    })(),
  ]);
  return { users: rows.map(toUser), total };
}

/** A live member, or null (a soft-deleted member is gone for every reader). */
export async function findUser(database: Database, userId: number): Promise<User | null> {
  const [row] = await database.query<UserRow>(
    `select ${USER_COLUMNS} from users u ${USER_JOINS} where u.user_id = $1 and u.deleted_at is null`,
    [userId],
  );
  return row ? toUser(row) : null;
}

/** The live member a referral code names: their own code (any case) or their user id. */
export async function findReferrer(database: Database, code: string): Promise<{ userId: number; level: number } | null> {
  const trimmed = code.trim();
  const byId = /^\d{1,15}$/.test(trimmed);
  const [row] = await database.query<{ user_id: number | string; level: number }>(
    byId
      ? 'select user_id, level from users where user_id = $1 and deleted_at is null'
      : 'select user_id, level from users where referral_code = $1 and deleted_at is null',
    [byId ? Number(trimmed) : trimmed.toUpperCase()],
  );
  return row ? { userId: Number(row.user_id), level: row.level } : null;
}

/** Which of the email and phone another live member already uses, as a message; null when free. */
export async function contactTaken(
  database: Database,
  contact: { email?: string; phone?: string },
  exceptUserId?: number,
): Promise<string | null> {
  const [row] = await database.query<{ email_taken: boolean; phone_taken: boolean }>(
    `select coalesce(bool_or(email = $1), false) as email_taken, coalesce(bool_or(phone = $2), false) as phone_taken
       from users where deleted_at is null and (email = $1 or phone = $2) and user_id <> $3`,
    [contact.email ?? null, contact.phone ?? null, exceptUserId ?? 0],
  );
  if (row?.email_taken) return 'A member with this email already exists';
  if (row?.phone_taken) return 'A member with this phone number already exists';
  return null;
}

export async function rankExists(database: Database, rankId: number): Promise<boolean> {
  const rows = await database.query('select 1 from ranks where rank_id = $1', [rankId]);
  return rows.length > 0;
}
