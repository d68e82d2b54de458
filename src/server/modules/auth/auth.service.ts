import type { LoginBody, RegisterBody, SessionUser } from '../../../contract/auth.ts';
import type { Config } from '../../config.ts';
import { audit } from '../../lib/audit.ts';
import { actorId, type AuthContext, type Ctx } from '../../lib/context.ts';
import { accountRequiresTwoFactor, loadSession } from './session.ts';
import { AppError } from '../../lib/errors.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import { mailLink } from '../../mailer.ts';
import { createAccount } from '../users/users.service.ts';
import { addressKey, released, reserve, reserveCodeGuess, TooManyAttempts, waitText } from './attempts.ts';
import * as repo from './auth.repository.ts';
import { assertUsablePassword } from './password-policy.ts';
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
  const token = newToken();
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
 * Failed sign-ins are counted per email and address together (`pair`), per address, and per email
 * from every address (`account`). The first two refuse (429) only the address that failed; the
 * account's count never refuses an address that has not failed for it, so strangers guessing from
 * many addresses cannot lock the owner out (issue 22, finding 7). Instead, once the account has
 * LOGIN_MAX_FAILURES_PER_ACCOUNT failures in the window, an address that has failed for it waits
 * LOGIN_ACCOUNT_DELAY_SECONDS after its last failure there before trying again, doubled for every
 * further LOGIN_MAX_FAILURES_PER_ACCOUNT failures of the account, up to the window.
 */
function signInKeys(email: string, ip: string) {
  const address = addressKey(ip);
  return { pair: `login:${email}|${address}`, address: `login-ip:${address}`, account: `login-email:${email}` };
}

/** The wait of an address that has failed for an account with `failures` failures in the window (0 = none). */
export function accountDelaySeconds(config: Pick<Config, 'loginMaxFailuresPerAccount' | 'loginAccountDelaySeconds' | 'loginWindowMinutes'>, failures: number): number {
  const { loginMaxFailuresPerAccount: n, loginAccountDelaySeconds: base, loginWindowMinutes } = config;
  if (failures < n) return 0;
  const doublings = Math.min(20, Math.floor((failures - n) / Math.max(1, n)));
  return Math.min(base * 2 ** doublings, loginWindowMinutes * 60);
}

const tooManySignIns = (seconds: number) =>
  new TooManyAttempts(`Too many failed sign-in attempts. Please try again in ${waitText(seconds)}.`, seconds);

export const UNCONFIRMED = 'Confirm your email address first: follow the link we mailed you when you registered (or use Forgot password to get a new link).';

export async function login(ctx: Ctx, input: LoginBody, client: Client) {
  const { db } = ctx.database;
  const { config } = ctx;
  const keys = signInKeys(input.email, ctx.ip);
  // The attempt is reserved (counted as a failure) before the password is even looked at, so
  // concurrent guesses cannot all slip under the limits; a right password gives it back.
  const reservation = await reserve(db, {
    windowMinutes: config.loginWindowMinutes,
    limits: [
      { key: keys.pair, max: config.loginMaxFailuresPerEmail },
      { key: keys.address, max: config.loginMaxFailuresPerIp },
    ],
    extraKeys: [keys.account],
    rule: (attempts) => {
      const pair = attempts(keys.pair);
      if (pair.newestAge === null) return 0; // this address has not failed for this account: never slowed
      const delay = accountDelaySeconds(config, attempts(keys.account).count);
      return delay === 0 ? 0 : Math.max(0, Math.ceil(delay - pair.newestAge));
    },
  });
  if ('retryAfterSeconds' in reservation) throw tooManySignIns(reservation.retryAfterSeconds);
  const fail = (status: number, message: string, extra: Record<string, unknown> = {}): never => {
    throw new AppError(status, message, { data: { message }, ...extra });
  };
  const giveBack = () => released(db, reservation);
  const account = await repo.findAccountByEmail(db, input.email);
  const ok = await verifyPassword(input.password, account?.passwordHash ?? null);
  // Members (accounts that do not sign in) are refused exactly like a wrong password.
  if (!account || !account.canSignIn || !ok) return fail(401, 'Invalid email or password');
  // The password was right: what follows is not a guess, unless a wrong code is.
  if (!account.status) {
    await giveBack();
    return fail(403, 'Your account is inactive. Contact an administrator.');
  }
  if (account.unconfirmed) {
    await giveBack();
    return fail(403, UNCONFIRMED);
  }
  // Only now may the answer say whether a second factor is on.
  const second = await findTwoFactor(db, account.userId);
  const enabled = second?.enabledAt != null;
  if (enabled) {
    if (!input.code) {
      await giveBack();
      return fail(401, CODE_NEEDED, { twoFactorRequired: true });
    }
    // Codes are counted per account as well, whatever the address: with the password, guesses
    // spread over many addresses are still checked at most MAX_WRONG_CODES times a window.
    const giveBackCode = await reserveCodeGuess(db, config.loginWindowMinutes, account.userId).catch(async (error: unknown) => {
      await giveBack();
      throw error;
    });
    if (!(await verifyCode(db, account.userId, second!, input.code))) return fail(401, INVALID_CODE, { twoFactorRequired: true });
    await giveBackCode();
  }
  const mustEnrol = !enabled && accountRequiresTwoFactor(ctx.config, account.roleName ?? '', account.roleRequiresTwoFactor ?? false);
  await giveBack();
  await repo.clearAttempts(db, keys.pair);
  await repo.touchLastLogin(db, account.userId);
  const session = await openSession(ctx, client, account.userId, input.rememberMe === true, mustEnrol ? 'enrol' : 'full');
  const secondFactor = !enabled ? (mustEnrol ? 'enrolment required' : 'off') : /^\d{6}$/.test(input.code ?? '') ? 'code' : 'recovery code';
  await audit(db, ctx, {
    action: 'login', entity: 'session', entityId: account.userId, actorId: account.userId, after: { twoFactor: secondFactor },
  });
  return session;
}

/** How long a registration's confirmation link works. */
const CONFIRM_TOKEN_MS = 72 * 3600 * 1000;

export const REGISTRATION_TAKEN =
  'An account with this email, phone number or username already exists. Sign in, or use Forgot password if it is yours.';

/**
 * Self-registration: an account with no role, so it holds no permission until staff assign one,
 * and unconfirmed until the link mailed to its address is followed (issue 22). The answer keeps
 * the spec's contract (token and user), but the token is refused (401) until the address is
 * confirmed: a stranger who registers someone else's email holds nothing, and a staff invitation
 * for that email takes the registration over. Registrations are limited per address
 * (REGISTER_MAX_PER_IP in the window, accepted or refused alike), so the one "already exists"
 * answer cannot be used to sweep emails, phones or usernames.
 */
export async function register(ctx: Ctx, input: RegisterBody, client: Client) {
  if (!ctx.config.allowRegistration) throw new AppError(403, 'Registration is disabled');
  const { db } = ctx.database;
  await assertUsablePassword(input.password, 'password', [input.email, input.name]);
  const { loginWindowMinutes: window, registerMaxPerIp } = ctx.config;
  const reservation = await reserve(db, { windowMinutes: window, limits: [{ key: `register-ip:${addressKey(ctx.ip)}`, max: registerMaxPerIp }] });
  if ('retryAfterSeconds' in reservation) {
    const seconds = reservation.retryAfterSeconds;
    throw new TooManyAttempts(`Too many registrations from this address. Please try again in ${waitText(seconds)}.`, seconds);
  }
  if (await repo.registrationTaken(db, input.email, input.phone, input.name)) throw new AppError(409, REGISTRATION_TAKEN);
  const passwordHash = await hashPassword(input.password);
  const token = newToken();
  const confirmToken = newToken();
  const user = await db.transaction(async (tx) => {
    const created = await createAccount(tx, {
      username: input.name,
      fullName: input.fullName,
      email: input.email,
      phone: input.phone,
      address: input.address,
      passwordHash,
      canSignIn: true,
      roleId: null,
      level: 1,
      unconfirmed: true,
    });
    await repo.createPasswordReset(tx, {
      tokenHash: hashToken(confirmToken), userId: created.userId, expiresAt: new Date(Date.now() + CONFIRM_TOKEN_MS), purpose: 'confirm',
    });
    await repo.createSession(tx, {
      tokenHash: hashToken(token),
      userId: created.userId,
      expiresAt: new Date(Date.now() + SHORT_SESSION_MS),
      ip: ctx.ip,
      userAgent: client.userAgent?.slice(0, 300) ?? null,
      stage: 'full',
      lastUsedAt: new Date(),
    });
    await audit(tx, ctx, { action: 'register', entity: 'user', entityId: created.userId, after: created, actorId: created.userId });
    return created;
  });
  const sessionUser: SessionUser = {
    _id: String(user.userId), userId: user.userId, name: input.name, fullName: input.fullName, email: input.email,
    role: '', permissions: [], twoFactorEnabled: false, twoFactorSetupRequired: false,
  };
  const delivery = ctx.mailer.sendEmailConfirmation(input.email, input.fullName, mailLink(ctx.config, 'confirm-email', confirmToken));
  return { token, user: sessionUser, delivery };
}

/**
 * Follows a mailed confirmation link. A registration's: the account may sign in from now on (and
 * the token registration returned starts to work, within its 12 hours). A new sign-in email's
 * (account.service changeOwnEmail): the address becomes the account's, and links sent to the old
 * one stop working. Answers which it was.
 */
export async function confirmEmail(ctx: Ctx, token: string): Promise<'confirm' | 'email'> {
  return ctx.database.db.transaction(async (tx) => {
    const link = await repo.consumeLink(tx, hashToken(token), ['confirm', 'email']);
    if (!link) throw new AppError(400, 'This confirmation link is invalid or has expired. If your address is not confirmed yet, use Forgot password to get a new link.');
    if (link.purpose === 'email' && link.newEmail) {
      if (await repo.emailTakenByOther(tx, link.newEmail, link.userId)) throw new AppError(409, 'An account with this email already exists');
      const before = await repo.emailOf(tx, link.userId);
      await repo.setEmail(tx, link.userId, link.newEmail);
      await repo.voidPasswordResets(tx, link.userId);
      await audit(tx, ctx, {
        action: 'change_email', entity: 'user', entityId: link.userId, actorId: link.userId, before: { email: before }, after: { email: link.newEmail },
      });
      return 'email';
    }
    await repo.markConfirmed(tx, link.userId);
    await audit(tx, ctx, { action: 'confirm_email', entity: 'user', entityId: link.userId, actorId: link.userId });
    return 'confirm';
  });
}

export async function logout(ctx: Ctx) {
  const userId = actorId(ctx);
  await repo.deleteSession(ctx.database.db, ctx.auth!.tokenHash);
  await audit(ctx.database.db, ctx, { action: 'logout', entity: 'session', entityId: userId });
}

/**
 * Mails a reset link on PUBLIC_URL. Answers the same whether or not the account exists: per email
 * at most RESET_MAX_PER_EMAIL mails in the window (more calls mail nothing), per address at most
 * RESET_MAX_PER_IP calls (then 429, which says nothing about any account). Both are reserved
 * before anything else happens, so concurrent calls cannot send more.
 *
 * Returns the mail's delivery, not awaited: a slow mail server must not make an existing account
 * answer later than a missing one (the caller logs a failed delivery); null when nothing is mailed.
 */
export async function forgotPassword(ctx: Ctx, email: string): Promise<{ delivery: Promise<void> | null }> {
  const { db } = ctx.database;
  const { loginWindowMinutes: window, resetMaxPerEmail, resetMaxPerIp } = ctx.config;
  const byAddress = await reserve(db, { windowMinutes: window, limits: [{ key: `reset-ip:${addressKey(ctx.ip)}`, max: resetMaxPerIp }] });
  if ('retryAfterSeconds' in byAddress) {
    const seconds = byAddress.retryAfterSeconds;
    throw new TooManyAttempts(`Too many password reset requests from this address. Please try again in ${waitText(seconds)}.`, seconds);
  }
  const byEmail = await reserve(db, { windowMinutes: window, limits: [{ key: `reset-email:${email}`, max: resetMaxPerEmail }] });
  if ('retryAfterSeconds' in byEmail) return { delivery: null };
  const account = await repo.findAccountByEmail(db, email);
  if (!account?.canSignIn || !account.status) return { delivery: null };
  const token = newToken();
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
 * voids every other link of the account and signs out every session. The link was mailed to the
 * account's address, so an unconfirmed registration is confirmed by it too.
 */
export async function resetPassword(ctx: Ctx, input: { token: string; newPassword: string }) {
  const { token, newPassword } = input;
  const { db } = ctx.database;
  const link = await repo.findLiveLink(db, hashToken(token), ['reset', 'invite']);
  if (!link) throw new AppError(400, 'Invalid or expired reset token');
  await assertUsablePassword(newPassword, 'newPassword', [link.email, link.username]);
  const passwordHash = await hashPassword(newPassword);
  return db.transaction(async (tx) => {
    const used = await repo.consumeLink(tx, hashToken(token), ['reset', 'invite']);
    if (!used) throw new AppError(400, 'Invalid or expired reset token');
    await repo.voidPasswordResets(tx, used.userId);
    await repo.setPassword(tx, used.userId, passwordHash);
    await repo.markConfirmed(tx, used.userId);
    await repo.deleteUserSessions(tx, used.userId);
    const action = used.purpose === 'invite' ? 'accept_invite' : 'reset_password';
    await audit(tx, ctx, { action, entity: 'user', entityId: used.userId, actorId: used.userId });
    return used.purpose;
  });
}
