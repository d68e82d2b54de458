import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { roles } from '../../db/schema/access.ts';
import { users } from '../../db/schema/members.ts';
import { loginFailures, passwordResets, sessions } from '../../db/schema/system.ts';

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

/** The account's live sessions, most recently used first. */
export async function listSessions(db: Db, userId: number) {
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
