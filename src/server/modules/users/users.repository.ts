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
    const any = [`lower(u.full_name) like ${arg(`%${likeEscape(term)}%`)}`, `u.email like ${arg(`${likeEscape(term)}%`)}`];
    if (/^\+?\d+$/.test(term)) any.push(`u.phone like ${arg(`${likeEscape(term)}%`)}`);
    if (/^\d{1,15}$/.test(term)) any.push(`u.user_id = ${arg(Number(term))}`);
    where.push(`(${any.join(' or ')})`);
  }
  const filter = where.join(' and ');
  const countParams = [...params];
  const order = (alias: string) => ORDER[f.sort].replaceAll('u.', `${alias}.`);
  const window = `limit ${arg(f.limit)} offset ${arg((f.page - 1) * f.limit)}`;
  // Page ids first, then the joins for just those 25 rows: a deep page skips ids, not joined rows.
  // A search collects its (index-found) matches before sorting, so the planner never walks the
  // whole primary key backwards hoping to meet a rare match.
  const pageIds = term
    ? `with m as materialized (select u.user_id, u.created_at from users u where ${filter})
       select m.user_id from m order by ${order('m')} ${window}`
    : `select u.user_id from users u where ${filter} order by ${order('u')} ${window}`;
  const [rows, [count]] = await Promise.all([
    database.query<UserRow>(
      `select ${USER_COLUMNS} from (${pageIds}) p join users u on u.user_id = p.user_id ${USER_JOINS} order by ${order('u')}`,
      params,
    ),
    term
      ? database.query<{ n: number | string }>(`select count(*) as n from users u where ${filter}`, countParams)
      : countBySegment(database, f),
  ]);
  return { users: rows.map(toUser), total: Number(count?.n ?? 0) };
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
