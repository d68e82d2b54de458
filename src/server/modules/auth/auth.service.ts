import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { LoginBody, RegisterBody, SessionUser } from '../../../contract/auth.ts';
import { audit } from '../../plugins/audit.ts';
import { accountRequiresTwoFactor, hashToken, loadSession, type AuthContext } from '../../plugins/auth.ts';
import { AppError } from '../../plugins/errors.ts';
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

async function openSession(
  app: FastifyInstance, request: FastifyRequest, userId: number, long: boolean, stage: 'full' | 'enrol' = 'full',
) {
  const token = randomBytes(32).toString('base64url');
  await repo.createSession(app.database.db, {
    tokenHash: hashToken(token),
    userId,
    expiresAt: new Date(Date.now() + (long ? LONG_SESSION_MS : SHORT_SESSION_MS)),
    ip: request.ip,
    userAgent: request.headers['user-agent']?.slice(0, 300) ?? null,
    stage,
    lastUsedAt: new Date(),
  });
  const auth = await loadSession(app, token);
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

export async function login(app: FastifyInstance, request: FastifyRequest, input: LoginBody) {
  const { db } = app.database;
  const { loginWindowMinutes: window, loginMaxFailuresPerEmail, loginMaxFailuresPerIp, loginMaxFailuresPerAccount } = app.config;
  const keys = signInKeys(input.email, request.ip);
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
  const mustEnrol = !enabled && accountRequiresTwoFactor(app, account.roleName ?? '', account.roleRequiresTwoFactor ?? false);
  await repo.clearAttempts(db, keys.pair);
  await repo.touchLastLogin(db, account.userId);
  const session = await openSession(app, request, account.userId, input.rememberMe === true, mustEnrol ? 'enrol' : 'full');
  const secondFactor = !enabled ? (mustEnrol ? 'enrolment required' : 'off') : /^\d{6}$/.test(input.code ?? '') ? 'code' : 'recovery code';
  await audit(db, request, {
    action: 'login', entity: 'session', entityId: account.userId, actorId: account.userId, after: { twoFactor: secondFactor },
  });
  return session;
}

/** Self-registration: an account that signs in with no role, so it holds no permission until staff assign one. */
export async function register(app: FastifyInstance, request: FastifyRequest, input: RegisterBody) {
  if (!app.config.allowRegistration) throw new AppError(403, 'Registration is disabled');
  const { db } = app.database;
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
    await audit(tx, request, { action: 'register', entity: 'user', entityId: created.userId, after: created, actorId: created.userId });
    return created;
  });
  return openSession(app, request, user.userId, false);
}

export async function logout(app: FastifyInstance, request: FastifyRequest) {
  const auth = request.auth!;
  await repo.deleteSession(app.database.db, auth.tokenHash);
  await audit(app.database.db, request, { action: 'logout', entity: 'session', entityId: auth.userId });
}

/**
 * Mails a reset link on PUBLIC_URL. Answers the same whether or not the account exists: per email
 * at most RESET_MAX_PER_EMAIL mails in the window (more calls mail nothing), per address at most
 * RESET_MAX_PER_IP calls (then 429, which says nothing about any account).
 */
export async function forgotPassword(app: FastifyInstance, request: FastifyRequest, email: string) {
  const { db } = app.database;
  const { loginWindowMinutes: window, resetMaxPerEmail, resetMaxPerIp } = app.config;
  const emailKey = `reset-email:${email}`;
  const ipKey = `reset-ip:${request.ip}`;
  const attempts = await repo.recentAttempts(db, [emailKey, ipKey], window);
  if (attempts(ipKey) >= resetMaxPerIp) {
    throw new AppError(429, `Too many password reset requests from this address. Please try again in ${window} minutes.`);
  }
  await repo.recordAttempts(db, [emailKey, ipKey]);
  if (attempts(emailKey) >= resetMaxPerEmail) return;
  const account = await repo.findAccountByEmail(db, email);
  if (!account?.canSignIn || !account.status) return;
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
  // Not awaited: a slow mail server must not make an existing account answer later than a missing one.
  app.mailer.sendPasswordReset(email, mailLink(app.config, 'reset-password', token)).catch((error: unknown) => {
    request.log.error({ to: email, reason: error instanceof Error ? error.message : String(error) }, 'the password reset mail could not be sent');
  });
}

/**
 * Consumes a reset link, or an invite link (an invited staff member's first password). Using one
 * voids every other link of the account and signs out every session.
 */
export async function resetPassword(app: FastifyInstance, request: FastifyRequest, token: string, newPassword: string) {
  const passwordHash = await hashPassword(newPassword);
  return app.database.db.transaction(async (tx) => {
    const link = await repo.consumePasswordReset(tx, hashToken(token));
    if (!link) throw new AppError(400, 'Invalid or expired reset token');
    await repo.voidPasswordResets(tx, link.userId);
    await repo.setPassword(tx, link.userId, passwordHash);
    await repo.deleteUserSessions(tx, link.userId);
    const action = link.purpose === 'invite' ? 'accept_invite' : 'reset_password';
    await audit(tx, request, { action, entity: 'user', entityId: link.userId, actorId: link.userId });
    return link.purpose;
  });
}
