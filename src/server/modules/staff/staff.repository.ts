import { and, count, eq, isNotNull, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { STAFF_SORTS, StaffMember, StaffRole } from '../../../contract/staff.ts';
import type { SortValue } from '../../../contract/common.ts';
import { orderBy } from '../../lib/order.ts';
import { ADMIN_ROLE, roleRequiresTwoFactor, USER_ROLE } from '../../../contract/permissions.ts';
import type { Db } from '../../db/client.ts';
import { iso } from '../../db/rows.ts';
import { roles } from '../../db/schema/access.ts';
import { users } from '../../db/schema/members.ts';
import { passwordResets, sessions, twoFactor } from '../../db/schema/system.ts';
import { likeEscape } from '../../db/member-search.ts';

/** What the Staff screen shows of an account; the flags are computed in the same statement. */
const staffColumns = {
  userId: users.userId,
  fullName: users.fullName,
  email: users.email,
  roleId: users.roleId,
  role: roles.name,
  status: users.status,
  lastLogin: users.lastLogin,
  twoFactorEnabled: sql<boolean>`exists (select 1 from two_factor tf where tf.user_id = ${users.userId} and tf.enabled_at is not null)`,
  invitePending: sql<boolean>`(${users.passwordHash} is null and exists (
     select 1 from password_resets pr
      where pr.user_id = ${users.userId} and pr.purpose = 'invite' and pr.used_at is null and pr.expires_at > now()
  ))`,
  passwordSet: sql<boolean>`${users.passwordHash} is not null`,
  unconfirmed: users.unconfirmed,
};

/** Accounts that sign in, not deleted: written as users_staff_idx's predicate so the planner uses it. */
const isStaff = sql`${users.canSignIn} and ${users.deletedAt} is null`;

const selectStaff = (db: Db) => db.select(staffColumns).from(users).leftJoin(roles, eq(roles.roleId, users.roleId));

type StaffRecord = Awaited<ReturnType<typeof selectStaff>>[number];

const toStaff = ({ lastLogin, ...r }: StaffRecord): StaffMember => ({ ...r, lastSignIn: lastLogin === null ? null : iso(lastLogin) });

export interface StaffFilter {
  q?: string;
  status?: 'active' | 'inactive';
  sort: SortValue<(typeof STAFF_SORTS)[number]>;
  page: number;
  limit: number;
}

/**
 * Staff are a few dozen rows among a million members: users_staff_idx holds exactly them, so any
 * sort is a sort of those few rows (no index per sort column needed). Ties by user id.
 */
export async function listStaff(db: Db, f: StaffFilter): Promise<{ data: StaffMember[]; total: number }> {
  const conditions: SQL[] = [isStaff];
  if (f.status) conditions.push(eq(users.status, f.status === 'active'));
  const q = f.q?.toLowerCase();
  if (q) {
    const contains = `%${likeEscape(q)}%`;
    const id = /^\d{1,15}$/.test(q) ? Number(q) : -1;
    conditions.push(sql`(lower(${users.fullName}) like ${contains} or lower(${users.email}) like ${contains} or ${users.userId} = ${id})`);
  }
  const where = and(...conditions);
  const rows = await selectStaff(db).where(where).orderBy(...orderBy(f.sort, {
    userId: users.userId, fullName: sql`lower(${users.fullName})`, email: users.email, role: roles.name, status: users.status, lastSignIn: sql`coalesce(${users.lastLogin}, '-infinity')`,
  }, users.userId)).limit(f.limit).offset((f.page - 1) * f.limit);
  const [{ total }] = await db.select({ total: count() }).from(users).where(where);
  return { data: rows.map(toStaff), total };
}

export async function findStaff(db: Db, userId: number): Promise<StaffMember | null> {
  const [row] = await selectStaff(db).where(and(eq(users.userId, userId), isStaff));
  return row ? toStaff(row) : null;
}

/** Fields of an account the Staff screen edits. */
export async function updateAccount(db: Db, userId: number, values: Partial<Pick<typeof users.$inferInsert, 'fullName' | 'email' | 'roleId' | 'status'>>) {
  await db.update(users).set({ ...values, updatedAt: new Date() }).where(eq(users.userId, userId));
}

/** Invitations take placeholder phones in turn: two at once must not pick the same one. */
export async function lockInvitations(db: Db): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(80092613)`);
}

export interface LockedAccount {
  userId: number;
  fullName: string;
  email: string;
  roleId: number | null;
  status: boolean;
  canSignIn: boolean;
  passwordSet: boolean;
  unconfirmed: boolean;
}

/** The live account, locked for the rest of the transaction (null when there is none). */
export async function lockAccount(db: Db, userId: number): Promise<LockedAccount | null> {
  const [row] = await db
    .select({
      userId: users.userId, fullName: users.fullName, email: users.email, roleId: users.roleId, status: users.status,
      canSignIn: users.canSignIn, passwordSet: sql<boolean>`${users.passwordHash} is not null`, unconfirmed: users.unconfirmed,
    })
    .from(users)
    .where(and(eq(users.userId, userId), isNull(users.deletedAt)))
    .for('update');
  return row ?? null;
}

/** The roles the Staff screen offers: active ones, never the members' role. */
export async function assignableRoles(db: Db, adminTwoFactor: boolean): Promise<StaffRole[]> {
  const rows = await db
    .select({ roleId: roles.roleId, name: roles.name, twoFactorRequired: roles.twoFactorRequired })
    .from(roles)
    .where(and(eq(roles.status, true), ne(roles.name, USER_ROLE)))
    .orderBy(roles.name);
  return rows.map((r) => ({ ...r, twoFactorRequired: roleRequiresTwoFactor(r, adminTwoFactor) }));
}

/**
 * Serialises every change that could leave the installation without an administrator: two
 * operators demoting the last two administrators at once would each still see the other one.
 */
export async function lockAdminRole(db: Db): Promise<number> {
  const [row] = await db.select({ roleId: roles.roleId }).from(roles).where(eq(roles.name, ADMIN_ROLE)).for('update');
  return row.roleId;
}

/** Other accounts that can sign in as an administrator right now (active, with a password). */
export async function otherActiveAdministrators(db: Db, adminRoleId: number, exceptUserId: number): Promise<number> {
  const [{ n }] = await db
    .select({ n: count() })
    .from(users)
    .where(and(
      eq(users.roleId, adminRoleId), isStaff, eq(users.status, true), isNotNull(users.passwordHash), ne(users.userId, exceptUserId),
    ));
  return n;
}

/** The live account holding this email, locked for the rest of the transaction (null when there is none). */
export async function lockAccountByEmail(db: Db, email: string): Promise<LockedAccount | null> {
  const [row] = await db
    .select({ userId: users.userId })
    .from(users)
    .where(and(eq(users.email, email), isNull(users.deletedAt)))
    .limit(1);
  return row ? lockAccount(db, row.userId) : null;
}

/**
 * An invitation takes over an unconfirmed self-registration of the same email (issue 22): whoever
 * registered it proved nothing, so nothing of theirs stays — not the password, the username, the
 * phone or address they typed, a second factor, or a session. The account becomes the invitee's:
 * a staff account with the invited name and role and no password until the invitation is accepted.
 */
export async function takeOverRegistration(
  db: Db, userId: number, values: { fullName: string; roleId: number; phone: string },
): Promise<void> {
  await db.update(users).set({
    fullName: values.fullName, roleId: values.roleId, phone: values.phone, username: null, address: null, passwordHash: null,
    unconfirmed: false, status: true, level: 0, lastLogin: null, updatedAt: new Date(),
  }).where(eq(users.userId, userId));
  await db.delete(twoFactor).where(eq(twoFactor.userId, userId));
}

export async function emailTaken(db: Db, email: string, exceptUserId?: number): Promise<boolean> {
  const [row] = await db
    .select({ userId: users.userId })
    .from(users)
    .where(and(
      eq(users.email, email),
      isNull(users.deletedAt),
      exceptUserId === undefined ? undefined : ne(users.userId, exceptUserId),
    ))
    .limit(1);
  return Boolean(row);
}

/** Ends every session of the account; returns how many there were. */
export async function endSessions(db: Db, userId: number): Promise<number> {
  const gone = await db.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id });
  return gone.length;
}

/** Unused reset and invitation links of the account stop working (they were mailed to its old address, or are superseded). */
export async function retireLinks(db: Db, userId: number, purpose?: 'invite' | 'reset'): Promise<void> {
  await db
    .update(passwordResets)
    .set({ usedAt: sql`now()` })
    .where(and(
      eq(passwordResets.userId, userId),
      isNull(passwordResets.usedAt),
      purpose === undefined ? undefined : eq(passwordResets.purpose, purpose),
    ));
}

export async function createInviteLink(db: Db, userId: number, tokenHash: string, expiresAt: Date): Promise<void> {
  await db.insert(passwordResets).values({ tokenHash, userId, expiresAt, purpose: 'invite' });
}
