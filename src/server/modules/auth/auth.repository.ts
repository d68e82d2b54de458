import { and, eq, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { AccountSession } from '../../../contract/account.ts';
import { ADMIN_ROLE } from '../../../contract/permissions.ts';
import type { Database, Db } from '../../db/client.ts';
import { iso } from '../../db/rows.ts';
import { roles } from '../../db/schema/access.ts';
import { users } from '../../db/schema/members.ts';
import { loginFailures, passwordResets, sessions, type LinkPurpose } from '../../db/schema/system.ts';

/**
 * The session of a token hash, its account, and the permission names of the account's active
 * role — for the role Admin every permission there is, including ones created later. Only
 * accounts that sign in (staff) hold sessions; an account without a role holds no permission.
 * A request runs it when the session cache has no current entry (modules/auth/session-cache.ts):
 * plain SQL with one parameter, which the client prepares once per connection (Drizzle's own
 * statements pass their values where EXPLAIN_QUERIES cannot see them).
 */
const SESSION_SQL = `
  select u.user_id as "userId", u.username, u.full_name as "fullName", u.email, coalesce(r.name, '') as role,
         s.id as "sessionId", s.stage, s.last_used_at as "lastUsedAt", s.expires_at as "expiresAt",
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
   where s.token_hash = $1 and s.expires_at > now() and u.deleted_at is null and u.status and u.can_sign_in and not u.unconfirmed`;

/** A row of SESSION_SQL, typed from the tables it reads (both drivers give Date and number here). */
export type SessionRecord = Pick<typeof users.$inferSelect, 'userId' | 'username' | 'fullName' | 'email'>
  & Pick<typeof sessions.$inferSelect, 'stage' | 'lastUsedAt' | 'expiresAt'>
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
      unconfirmed: users.unconfirmed,
      roleName: roles.name,
      roleRequiresTwoFactor: roles.twoFactorRequired,
    })
    .from(users)
    .leftJoin(roles, eq(roles.roleId, users.roleId))
    .where(and(eq(users.email, email), isNull(users.deletedAt)))
    .limit(1);
  return row ?? null;
}

/**
 * Whether a registration's email, phone or username is taken: one answer for all three, so the
 * answer tells a sweeper less (usernames are unique among deleted accounts too).
 */
export async function registrationTaken(db: Db, email: string, phone: string, username: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: users.userId })
    .from(users)
    .where(sql`(${users.deletedAt} is null and (${users.email} = ${email} or ${users.phone} = ${phone})) or ${users.username} = ${username}`)
    .limit(1);
  return row !== undefined;
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

/** Signs out every session of the account but the one with `keepTokenHash`; how many ended. */
export async function deleteOtherSessions(db: Db, userId: number, keepTokenHash: string): Promise<number> {
  const rows = await db.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.tokenHash, keepTokenHash))).returning({ id: sessions.id });
  return rows.length;
}

export async function touchLastLogin(db: Db, userId: number) {
  await db.update(users).set({ lastLogin: sql`now()` }).where(eq(users.userId, userId));
}

/**
 * Attempts are rows of login_failures per key. Keys: 'login:<email>|<address>', 'login-ip:<address>',
 * 'login-email:<email>' (sign-in), 'reset-email:<email>', 'reset-ip:<address>' (forgot-password),
 * 'register-ip:<address>' (registration), 'totp:<userId>' (two-factor codes on /account),
 * 'password:<userId>' (the password /account asks for).
 */
export interface AttemptsOfKey {
  count: number;
  newestAge: number | null;
  ages: number[];
}

/**
 * Reserves one attempt under each key, atomically with the check: a transaction takes an advisory
 * lock per key (in key order, so two reservations never wait on each other in a circle), reads the
 * window's attempts, and writes one row per key when `wait` answers 0. A concurrent reservation for
 * the same key waits for the lock and then counts this one. Ages are measured with clock_timestamp(),
 * not the transaction's start, because a reservation may have waited for its lock.
 */
export async function reserveAttempts(
  db: Db,
  keys: string[],
  windowMinutes: number,
  wait: (attempts: (key: string) => AttemptsOfKey) => number,
): Promise<{ ids: number[] } | { retryAfterSeconds: number }> {
  const sorted = [...new Set(keys)].sort();
  return db.transaction(async (tx) => {
    for (const key of sorted) await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`attempt:${key}`}, 0))`);
    const rows = await tx
      .select({
        key: loginFailures.key,
        ages: sql<number[]>`array_agg(extract(epoch from clock_timestamp() - ${loginFailures.createdAt})::float8 order by ${loginFailures.createdAt}, ${loginFailures.id})`,
      })
      .from(loginFailures)
      .where(and(
        inArray(loginFailures.key, sorted),
        gt(loginFailures.createdAt, sql`clock_timestamp() - make_interval(mins => ${windowMinutes})`),
      ))
      .groupBy(loginFailures.key);
    const byKey = new Map(rows.map((r) => [r.key, r.ages.map(Number)]));
    const attempts = (key: string): AttemptsOfKey => {
      const ages = byKey.get(key) ?? [];
      return { count: ages.length, newestAge: ages.length ? ages[ages.length - 1] : null, ages };
    };
    const retryAfterSeconds = wait(attempts);
    if (retryAfterSeconds > 0) return { retryAfterSeconds };
    const inserted = await tx
      .insert(loginFailures)
      .values(sorted.map((key) => ({ key, createdAt: sql`clock_timestamp()` })))
      .returning({ id: loginFailures.id });
    return { ids: inserted.map((r) => r.id) };
  });
}

/** Gives reserved attempts back (the attempt turned out not to count: a right password). */
export async function releaseAttempts(db: Db, ids: number[]) {
  if (ids.length) await db.delete(loginFailures).where(inArray(loginFailures.id, ids));
}

export async function clearAttempts(db: Db, key: string) {
  await db.delete(loginFailures).where(eq(loginFailures.key, key));
}

export async function createPasswordReset(db: Db, r: typeof passwordResets.$inferInsert) {
  await db.insert(passwordResets).values(r);
}

/** Ends the account's unused links of `purpose` (a newer one replaces them). */
export async function voidLinks(db: Db, userId: number, purpose: LinkPurpose) {
  await db
    .update(passwordResets)
    .set({ usedAt: sql`now()` })
    .where(and(eq(passwordResets.userId, userId), eq(passwordResets.purpose, purpose), isNull(passwordResets.usedAt)));
}

/** Ends every unused link of the account (a newer link, or one just used, makes them void). */
export async function voidPasswordResets(db: Db, userId: number) {
  await db
    .update(passwordResets)
    .set({ usedAt: sql`now()` })
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
}

/** A live link of one of `purposes` with its account's email and username (the password rule reads them), or null. */
export async function findLiveLink(db: Db, tokenHash: string, purposes: LinkPurpose[]) {
  const [row] = await db
    .select({ userId: passwordResets.userId, purpose: passwordResets.purpose, email: users.email, username: users.username })
    .from(passwordResets)
    .innerJoin(users, eq(users.userId, passwordResets.userId))
    .where(and(
      eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, sql`now()`),
      inArray(passwordResets.purpose, purposes),
    ));
  return row ?? null;
}

/**
 * Marks a live link of one of `purposes` used and returns its account, or null; single use under
 * concurrency. A confirmation link never sets a password, and a reset link never confirms by itself.
 */
export async function consumeLink(db: Db, tokenHash: string, purposes: LinkPurpose[]) {
  const [row] = await db
    .update(passwordResets)
    .set({ usedAt: sql`now()` })
    .where(and(
      eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, sql`now()`),
      inArray(passwordResets.purpose, purposes),
    ))
    .returning({ userId: passwordResets.userId, purpose: passwordResets.purpose, newEmail: passwordResets.newEmail });
  return row ?? null;
}

/**
 * The account's email is proven (a confirmation, reset or invite link mailed to it was used):
 * returns whether it was unconfirmed until now.
 */
export async function markConfirmed(db: Db, userId: number): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ unconfirmed: false, updatedAt: sql`now()` })
    .where(and(eq(users.userId, userId), eq(users.unconfirmed, true)))
    .returning({ userId: users.userId });
  return rows.length > 0;
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

export async function emailOf(db: Db, userId: number): Promise<string | null> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.userId, userId));
  return row?.email ?? null;
}

export async function setEmail(db: Db, userId: number, email: string) {
  await db.update(users).set({ email, updatedAt: sql`now()` }).where(eq(users.userId, userId));
}
