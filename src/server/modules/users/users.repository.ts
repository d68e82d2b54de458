import { and, eq, isNull, ne, or, sql } from 'drizzle-orm';
import type { User } from '../../../contract/users.ts';
import { rowsOf, type Database, type Db } from '../../db/client.ts';
import { isoText } from '../../db/rows.ts';
import { ranks } from '../../db/schema/catalogue.ts';
import { users } from '../../db/schema/members.ts';
import type { userSegments } from '../../db/schema/system.ts';

export type NewUser = Omit<typeof users.$inferInsert, 'userId' | 'referralCode'>;

/** A member's own referral code, derived from the user id so it is unique and stable. */
export function referralCodeFor(userId: number): string {
  return `BO${userId}`;
}

/** The next user id, taken from the sequence. */
type NextIdRow = { id: UserColumns['userId'] };
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

export type UserColumns = typeof users.$inferSelect;
export type UserId = Pick<UserColumns, 'userId'>;

/**
 * A member as every user call reads it: the columns of spec §3 User (typed from the schema) with
 * the role, referrer and rank names joined in, as the list and findUser read them (raw SQL: both
 * are on every member screen's path).
 */
export type UserRow = Pick<
  UserColumns,
  | 'userId' | 'fullName' | 'email' | 'phone' | 'address' | 'companyName' | 'status' | 'referredBy'
  | 'rankId' | 'level' | 'dob' | 'whatsapp' | 'image' | 'state' | 'referralCode'
> & { role: string; referrerName: string | null; rank: string | null; lastLogin: string | null; createdAt: string };

/**
 * UserRow's columns of `users u` in SQL. The role, referrer and rank names are looked up row by
 * row (each by its primary key, at most one row): planned as three one-table lookups instead of a
 * four-way join, which is most of what planning a page costs (issue 23). The times come as ISO
 * text (isoText).
 */
export const USER_COLUMNS = `
  u.user_id as "userId", u.full_name as "fullName", u.email, u.phone, u.address, u.company_name as "companyName",
  coalesce((select ro.name from roles ro where ro.role_id = u.role_id), 'User') as role, u.status,
  ${isoText('u.last_login')} as "lastLogin", u.referred_by as "referredBy",
  (select ref.full_name from users ref where ref.user_id = u.referred_by) as "referrerName",
  (select rk.name from ranks rk where rk.rank_id = u.rank_id) as rank, u.rank_id as "rankId", u.level, u.dob::text as dob,
  u.whatsapp, u.image, u.state, u.referral_code as "referralCode", ${isoText('u.created_at')} as "createdAt"`;

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
    lastLogin: r.lastLogin ?? 'Never',
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
    createdAt: r.createdAt,
  };
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
