import { randomBytes } from 'node:crypto';
import type { LoginBody, RegisterBody, SessionUser } from '../../../contract/auth.ts';
import { audit } from '../../lib/audit.ts';
import { actorId, type AuthContext, type Ctx } from '../../lib/context.ts';
import { accountRequiresTwoFactor, hashToken, loadSession } from '../../plugins/auth.ts';
import { AppError } from '../../lib/errors.ts';
import { mailLink } from '../../mailer.ts';
import { insertUser } from '../users/users.repository.ts';
import * as repo from './auth.repository.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { findTwoFactor, verifyCode } from './two-factor.ts';

const LONG_SESSION_MS = 30 * 24 * 3600 * 1000; // "Remember me"
const SHORT_SESSION_MS = 12 * 3600 * 1000;
const RESET_TOKEN_MS = 30 * 60 * 1000;

export const CODE_NEEDED = 'Enter the 6-digit code from your authenticator app';
export const INVALID_CODE = 'Invalid two-factor code';

export function toSessionUser(auth: AuthContext): SessionUser {
  return {
    _id: String(auth.userId),
    userId: auth.userId,
    name: auth.name,
    fullName: auth.fullName,
    email: auth.email,
    role: auth.role,
    permissions: [...auth.permissions],
    twoFactorEnabled: auth.twoFactorEnabled,
    twoFactorSetupRequired: auth.stage === 'enrol',
  };
}

/** Who opens a session: the browser's User-Agent, kept for "your sessions" (the address is ctx.ip). */
export interface Client {
  userAgent: string | null;
}

async function openSession(ctx: Ctx, client: Client, userId: number, long: boolean, stage: 'full' | 'enrol' = 'full') {
  const token = randomBytes(32).toString('base64url');
  await repo.createSession(ctx.database.db, {
    tokenHash: hashToken(token),
    userId,
    expiresAt: new Date(Date.now() + (long ? LONG_SESSION_MS : SHORT_SESSION_MS)),
    ip: ctx.ip,
    userAgent: client.userAgent?.slice(0, 300) ?? null,
    stage,
    lastUsedAt: new Date(),
  });
  const auth = await loadSession(ctx, token);
  if (!auth) throw new AppError(403, 'Your account is inactive. Contact an administrator.');
  return { token, user: toSessionUser(auth) };
}

/**
 * Failed sign-ins are counted per email and address together, per address, and per email from
 * every address (a much higher ceiling against guessing spread over many addresses). So failures
 * from elsewhere never lock the right password out of an address that has not failed itself.
 */
function signInKeys(email: string, address: string) {
  return { pair: `login:${email}|${address}`, address: `login-ip:${address}`, account: `login-email:${email}` };
}

export async function login(ctx: Ctx, input: LoginBody, client: Client) {
  const { db } = ctx.database;
  const { loginWindowMinutes: window, loginMaxFailuresPerEmail, loginMaxFailuresPerIp, loginMaxFailuresPerAccount } = ctx.config;
  const keys = signInKeys(input.email, ctx.ip);
  const attempts = await repo.recentAttempts(db, Object.values(keys), window);
  if (
    attempts(keys.pair) >= loginMaxFailuresPerEmail ||
    attempts(keys.address) >= loginMaxFailuresPerIp ||
    attempts(keys.account) >= loginMaxFailuresPerAccount
  ) {
    throw new AppError(429, `Too many failed sign-in attempts. Please try again in ${window} minutes.`);
  }
  const fail = async (status: number, message: string, extra: Record<string, unknown> = {}): Promise<never> => {
    await repo.recordAttempts(db, Object.values(keys));
    throw new AppError(status, message, { data: { message }, ...extra });
  };
  const account = await repo.findAccountByEmail(db, input.email);
  const ok = await verifyPassword(input.password, account?.passwordHash ?? null);
  // Members (accounts that do not sign in) are refused exactly like a wrong password.
  if (!account || !account.canSignIn || !ok) return fail(401, 'Invalid email or password');
  if (!account.status) {
    const message = 'Your account is inactive. Contact an administrator.';
    throw new AppError(403, message, { data: { message } });
  }
  // The password was right: only now may the answer say whether a second factor is on.
  const second = await findTwoFactor(db, account.userId);
  const enabled = second?.enabledAt != null;
  if (enabled) {
    if (!input.code) throw new AppError(401, CODE_NEEDED, { data: { message: CODE_NEEDED }, twoFactorRequired: true });
    if (!(await verifyCode(db, account.userId, second!, input.code))) return fail(401, INVALID_CODE, { twoFactorRequired: true });
  }
  const mustEnrol = !enabled && accountRequiresTwoFactor(ctx.config, account.roleName ?? '', account.roleRequiresTwoFactor ?? false);
  await repo.clearAttempts(db, keys.pair);
  await repo.touchLastLogin(db, account.userId);
  const session = await openSession(ctx, client, account.userId, input.rememberMe === true, mustEnrol ? 'enrol' : 'full');
  const secondFactor = !enabled ? (mustEnrol ? 'enrolment required' : 'off') : /^\d{6}$/.test(input.code ?? '') ? 'code' : 'recovery code';
  await audit(db, ctx, {
    action: 'login', entity: 'session', entityId: account.userId, actorId: account.userId, after: { twoFactor: secondFactor },
  });
  return session;
}

/** Self-registration: an account that signs in with no role, so it holds no permission until staff assign one. */
export async function register(ctx: Ctx, input: RegisterBody, client: Client) {
  if (!ctx.config.allowRegistration) throw new AppError(403, 'Registration is disabled');
  const { db } = ctx.database;
  const taken = await repo.emailOrPhoneTaken(db, input.email, input.phone, input.name);
  if (taken) throw new AppError(409, taken);
  const passwordHash = await hashPassword(input.password);
  const user = await db.transaction(async (tx) => {
    const created = await insertUser(tx, {
      username: input.name,
      fullName: input.fullName,
      email: input.email,
      phone: input.phone,
      address: input.address,
      passwordHash,
      canSignIn: true,
      roleId: null,
      level: 1,
    });
    await audit(tx, ctx, { action: 'register', entity: 'user', entityId: created.userId, after: created, actorId: created.userId });
    return created;
  });
  return openSession(ctx, client, user.userId, false);
}

export async function logout(ctx: Ctx) {
  const userId = actorId(ctx);
  await repo.deleteSession(ctx.database.db, ctx.auth!.tokenHash);
  await audit(ctx.database.db, ctx, { action: 'logout', entity: 'session', entityId: userId });
}

/**
 * Mails a reset link on PUBLIC_URL. Answers the same whether or not the account exists: per email
 * at most RESET_MAX_PER_EMAIL mails in the window (more calls mail nothing), per address at most
 * RESET_MAX_PER_IP calls (then 429, which says nothing about any account).
 *
 * Returns the mail's delivery, not awaited: a slow mail server must not make an existing account
 * answer later than a missing one (the caller logs a failed delivery); null when nothing is mailed.
 */
export async function forgotPassword(ctx: Ctx, email: string): Promise<{ delivery: Promise<void> | null }> {
  const { db } = ctx.database;
  const { loginWindowMinutes: window, resetMaxPerEmail, resetMaxPerIp } = ctx.config;
  const emailKey = `reset-email:${email}`;
  const ipKey = `reset-ip:${ctx.ip}`;
  const attempts = await repo.recentAttempts(db, [emailKey, ipKey], window);
  if (attempts(ipKey) >= resetMaxPerIp) {
    throw new AppError(429, `Too many password reset requests from this address. Please try again in ${window} minutes.`);
  }
  await repo.recordAttempts(db, [emailKey, ipKey]);
  if (attempts(emailKey) >= resetMaxPerEmail) return { delivery: null };
  const account = await repo.findAccountByEmail(db, email);
  if (!account?.canSignIn || !account.status) return { delivery: null };
  const token = randomBytes(32).toString('base64url');
  await db.transaction(async (tx) => {
    await repo.voidPasswordResets(tx, account.userId);
    await repo.createPasswordReset(tx, {
      tokenHash: hashToken(token),
      userId: account.userId,
      expiresAt: new Date(Date.now() + RESET_TOKEN_MS),
      purpose: 'reset',
    });
  });
  return { delivery: ctx.mailer.sendPasswordReset(email, mailLink(ctx.config, 'reset-password', token)) };
}

/**
 * Consumes a reset link, or an invite link (an invited staff member's first password). Using one
 * voids every other link of the account and signs out every session.
 */
export async function resetPassword(ctx: Ctx, input: { token: string; newPassword: string }) {
  const { token, newPassword } = input;
  const passwordHash = await hashPassword(newPassword);
  return ctx.database.db.transaction(async (tx) => {
    const link = await repo.consumePasswordReset(tx, hashToken(token));
    if (!link) throw new AppError(400, 'Invalid or expired reset token');
    await repo.voidPasswordResets(tx, link.userId);
    await repo.setPassword(tx, link.userId, passwordHash);
    await repo.deleteUserSessions(tx, link.userId);
    const action = link.purpose === 'invite' ? 'accept_invite' : 'reset_password';
    await audit(tx, ctx, { action, entity: 'user', entityId: link.userId, actorId: link.userId });
    return link.purpose;
  });
}
