import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { roles } from '../../db/schema/access.ts';
import { users } from '../../db/schema/members.ts';
import { loginFailures, passwordResets, sessions } from '../../db/schema/system.ts';

export async function findAccountByEmail(db: Db, email: string) {
  const [row] = await db
    .select({ userId: users.userId, passwordHash: users.passwordHash, status: users.status })
    .from(users)
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

export async function roleIdByName(db: Db, name: string): Promise<number | null> {
  const [row] = await db.select({ roleId: roles.roleId }).from(roles).where(eq(roles.name, name)).limit(1);
  return row?.roleId ?? null;
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

/** Failures per key within the window; the keys are 'email:…' and 'ip:…'. */
export async function recentFailures(db: Db, keys: string[], windowMinutes: number) {
  const rows = await db
    .select({ key: loginFailures.key, n: sql<number>`count(*)::int` })
    .from(loginFailures)
    .where(and(inArray(loginFailures.key, keys), gt(loginFailures.createdAt, sql`now() - make_interval(mins => ${windowMinutes})`)))
    .groupBy(loginFailures.key);
  return new Map(rows.map((r) => [r.key, Number(r.n)]));
}

export async function recordFailures(db: Db, keys: string[]) {
  await db.insert(loginFailures).values(keys.map((key) => ({ key })));
}

export async function clearFailures(db: Db, key: string) {
  await db.delete(loginFailures).where(eq(loginFailures.key, key));
}

export async function createPasswordReset(db: Db, r: typeof passwordResets.$inferInsert) {
  await db.insert(passwordResets).values(r);
}

/** Marks a live reset token used and returns its account, or null; single use under concurrency. */
export async function consumePasswordReset(db: Db, tokenHash: string): Promise<number | null> {
  const [row] = await db
    .update(passwordResets)
    .set({ usedAt: sql`now()` })
    .where(and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, sql`now()`)))
    .returning({ userId: passwordResets.userId });
  return row?.userId ?? null;
}

export async function setPassword(db: Db, userId: number, passwordHash: string) {
  await db.update(users).set({ passwordHash, updatedAt: sql`now()` }).where(eq(users.userId, userId));
}
