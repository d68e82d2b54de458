import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { AccountSession } from '../../../contract/account.ts';
import { ADMIN_ROLE } from '../../../contract/permissions.ts';
import type { Database, Db } from '../../db/client.ts';
import { iso } from '../../db/rows.ts';
import { roles } from '../../db/schema/access.ts';
import { users } from '../../db/schema/members.ts';
import { loginFailures, passwordResets, sessions } from '../../db/schema/system.ts';

/**
 * The session of a token hash, its account, and the permission names of the account's active
 * role — for the role Admin every permission there is, including ones created later. Only
 * accounts that sign in (staff) hold sessions; an account without a role holds no permission.
 * Every request runs it: plain SQL with one parameter, which the client prepares once per
 * connection (Drizzle's own statements pass their values where EXPLAIN_QUERIES cannot see them).
 */
const SESSION_SQL = `
  select u.user_id as "userId", u.username, u.full_name as "fullName", u.email, coalesce(r.name, '') as role,
         s.id as "sessionId", s.stage, s.last_used_at as "lastUsedAt",
         coalesce(r.two_factor_required, false) as "roleRequiresTwoFactor",
         exists (select 1 from two_factor tf where tf.user_id = u.user_id and tf.enabled_at is not null) as "twoFactorEnabled",
         case when r.name = '${ADMIN_ROLE}' then (select array_agg(p.name) from permissions p)
              when r.status then (select array_agg(p.name)
                                    from role_permissions rp
                                    join permissions p on p.permission_id = any(rp.permission_ids)
                                   where rp.role_id = u.role_id and rp.status)
         end as permissions
    from sessions s
    join users u on u.user_id = s.user_id
    left join roles r on r.role_id = u.role_id
   where s.token_hash = $1 and s.expires_at > now() and u.deleted_at is null and u.status and u.can_sign_in`;

/** A row of SESSION_SQL, typed from the tables it reads (both drivers give Date and number here). */
export type SessionRecord = Pick<typeof users.$inferSelect, 'userId' | 'username' | 'fullName' | 'email'>
  & Pick<typeof sessions.$inferSelect, 'stage' | 'lastUsedAt'>
  & { role: string; sessionId: number; roleRequiresTwoFactor: boolean; twoFactorEnabled: boolean; permissions: string[] | null };

export async function findSession(database: Database, tokenHash: string): Promise<SessionRecord | null> {
  const [row] = await database.query<SessionRecord>(SESSION_SQL, [tokenHash]);
  return row ?? null;
}

/** "Last used" of the session, to the minute (the guard decides when). */
export async function touchSession(db: Db, tokenHash: string) {
  await db.update(sessions).set({ lastUsedAt: sql`now()` }).where(eq(sessions.tokenHash, tokenHash));
}

/** An account by email, with what sign-in needs to know about its role and second factor. */
export async function findAccountByEmail(db: Db, email: string) {
  const [row] = await db
    .select({
      userId: users.userId,
      passwordHash: users.passwordHash,
      status: users.status,
      canSignIn: users.canSignIn,
      roleName: roles.name,
      roleRequiresTwoFactor: roles.twoFactorRequired,
    })
    .from(users)
    .leftJoin(roles, eq(roles.roleId, users.roleId))
    .where(and(eq(users.email, email), isNull(users.deletedAt)))
    .limit(1);
  return row ?? null;
}

export async function emailOrPhoneTaken(db: Db, email: string, phone: string, username: string) {
  const [row] = await db
    .select({ email: users.email, phone: users.phone, username: users.username })
    .from(users)
    .where(sql`(${users.deletedAt} is null and (${users.email} = ${email} or ${users.phone} = ${phone})) or ${users.username} = ${username}`)
    .limit(1);
  if (!row) return null;
  if (row.email === email) return 'An account with this email already exists';
  if (row.phone === phone) return 'An account with this phone number already exists';
  return 'This username is already taken';
}

export async function createSession(db: Db, s: typeof sessions.$inferInsert) {
  await db.insert(sessions).values(s);
}

export async function deleteSession(db: Db, tokenHash: string) {
  await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
}

export async function deleteUserSessions(db: Db, userId: number) {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

export async function touchLastLogin(db: Db, userId: number) {
  await db.update(users).set({ lastLogin: sql`now()` }).where(eq(users.userId, userId));
}

/**
 * Attempts per key within the window. Keys: 'login:<email>|<address>', 'login-ip:<address>',
 * 'login-email:<email>' (sign-in failures), 'reset-email:<email>', 'reset-ip:<address>'
 * (forgot-password calls).
 */
export async function recentAttempts(db: Db, keys: string[], windowMinutes: number) {
  const rows = await db
    .select({ key: loginFailures.key, n: sql<number>`count(*)::int` })
    .from(loginFailures)
    .where(and(inArray(loginFailures.key, keys), gt(loginFailures.createdAt, sql`now() - make_interval(mins => ${windowMinutes})`)))
    .groupBy(loginFailures.key);
  const counts = new Map(rows.map((r) => [r.key, Number(r.n)]));
  return (key: string) => counts.get(key) ?? 0;
}

export async function recordAttempts(db: Db, keys: string[]) {
  await db.insert(loginFailures).values(keys.map((key) => ({ key })));
}

export async function clearAttempts(db: Db, key: string) {
  await db.delete(loginFailures).where(eq(loginFailures.key, key));
}

export async function createPasswordReset(db: Db, r: typeof passwordResets.$inferInsert) {
  await db.insert(passwordResets).values(r);
}

/** Ends every unused link of the account (a newer link, or one just used, makes them void). */
export async function voidPasswordResets(db: Db, userId: number) {
  await db
    .update(passwordResets)
    .set({ usedAt: sql`now()` })
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
}

/** Marks a live reset or invite link used and returns its account, or null; single use under concurrency. */
export async function consumePasswordReset(db: Db, tokenHash: string) {
  const [row] = await db
    .update(passwordResets)
    .set({ usedAt: sql`now()` })
    .where(and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, sql`now()`)))
    .returning({ userId: passwordResets.userId, purpose: passwordResets.purpose });
  return row ?? null;
}

export async function setPassword(db: Db, userId: number, passwordHash: string) {
  await db.update(users).set({ passwordHash, updatedAt: sql`now()` }).where(eq(users.userId, userId));
}

export async function setSessionStage(db: Db, tokenHash: string, stage: 'full' | 'enrol') {
  await db.update(sessions).set({ stage }).where(eq(sessions.tokenHash, tokenHash));
}

export type SessionRow = Pick<typeof sessions.$inferSelect, 'id' | 'tokenHash' | 'ip' | 'userAgent' | 'createdAt' | 'lastUsedAt'>;

/** "Your sessions": `current` is the one this request was made with. */
export const toAccountSession = (r: SessionRow, currentTokenHash: string): AccountSession => ({
  id: r.id,
  ip: r.ip,
  userAgent: r.userAgent,
  createdAt: iso(r.createdAt),
  lastUsedAt: r.lastUsedAt === null ? null : iso(r.lastUsedAt),
  current: r.tokenHash === currentTokenHash,
});

/** The account's live sessions, most recently used first. */
export async function listSessions(db: Db, userId: number): Promise<SessionRow[]> {
  return db
    .select({
      id: sessions.id,
      tokenHash: sessions.tokenHash,
      ip: sessions.ip,
      userAgent: sessions.userAgent,
      createdAt: sessions.createdAt,
      lastUsedAt: sessions.lastUsedAt,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, sql`now()`)))
    .orderBy(sql`coalesce(${sessions.lastUsedAt}, ${sessions.createdAt}) desc`, sql`${sessions.id} desc`);
}

/** Ends one of the account's own sessions; false when it has none with that id. */
export async function deleteOwnSession(db: Db, userId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(sessions)
    .where(and(eq(sessions.id, id), eq(sessions.userId, userId)))
    .returning({ id: sessions.id });
  return rows.length > 0;
}

export async function passwordHashOf(db: Db, userId: number): Promise<string | null> {
  const [row] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.userId, userId));
  return row?.passwordHash ?? null;
}

/** Another live account already signs in or is registered with this email. */
export async function emailTakenByOther(db: Db, email: string, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ userId: users.userId })
    .from(users)
    .where(and(eq(users.email, email), isNull(users.deletedAt), sql`${users.userId} <> ${userId}`))
    .limit(1);
  return row !== undefined;
}

export async function setEmail(db: Db, userId: number, email: string) {
  await db.update(users).set({ email, updatedAt: sql`now()` }).where(eq(users.userId, userId));
}
