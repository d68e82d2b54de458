import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccountSession } from '../../../contract/account.ts';
import { audit } from '../../plugins/audit.ts';
import { AppError } from '../../plugins/errors.ts';
import * as repo from './auth.repository.ts';
import { INVALID_CODE } from './auth.service.ts';
import { verifyPassword } from './passwords.ts';
import { beginSetup, confirmSetup, findTwoFactor, removeTwoFactor, verifyCode } from './two-factor.ts';

/** The signed-in account's own two-factor sign-in and sessions; `request.auth` is always set here. */

/** Wrong codes per account within the sign-in window on enrolment and turn-off, before 429. */
const MAX_WRONG_CODES = 5;

/**
 * Someone holding a session (stolen, or a not-yet-enrolled one) must not guess codes without end to
 * switch two-factor on or off: wrong codes are counted per account like failed sign-ins.
 */
async function guardCodeGuessing(app: FastifyInstance, userId: number) {
  return guardGuessing(app, `totp:${userId}`, 'wrong two-factor codes', INVALID_CODE);
}

/** Counts wrong answers under `key` like failed sign-ins: 429 after MAX_WRONG_CODES in the window. */
async function guardGuessing(app: FastifyInstance, key: string, what: string, wrongMessage: string) {
  const window = app.config.loginWindowMinutes;
  const attempts = await repo.recentAttempts(app.database.db, [key], window);
  if (attempts(key) >= MAX_WRONG_CODES) {
    throw new AppError(429, `Too many ${what}. Please try again in ${window} minutes.`);
  }
  return async (): Promise<never> => {
    await repo.recordAttempts(app.database.db, [key]);
    throw new AppError(400, wrongMessage);
  };
}

/**
 * The account changes its own sign-in email (the only other way is the Staff screen). Its password
 * is asked again, so a session left open cannot redirect the account's reset mail; links sent to the
 * old address stop working.
 */
export async function changeOwnEmail(app: FastifyInstance, request: FastifyRequest, email: string, password: string) {
  const auth = request.auth!;
  const { db } = app.database;
  const wrongPassword = await guardGuessing(app, `password:${auth.userId}`, 'wrong passwords', 'Your password is not correct');
  if (!(await verifyPassword(password, await repo.passwordHashOf(db, auth.userId)))) await wrongPassword();
  if (email === auth.email) throw new AppError(409, 'This is already your sign-in email');
  if (await repo.emailTakenByOther(db, email, auth.userId)) throw new AppError(409, 'An account with this email already exists');
  await db.transaction(async (tx) => {
    await repo.setEmail(tx, auth.userId, email);
    await repo.voidPasswordResets(tx, auth.userId);
    await audit(tx, request, { action: 'change_email', entity: 'user', entityId: auth.userId, before: { email: auth.email }, after: { email } });
  });
}

export async function twoFactorStatus(app: FastifyInstance, request: FastifyRequest) {
  const auth = request.auth!;
  const row = await findTwoFactor(app.database.db, auth.userId);
  const enabled = row?.enabledAt != null;
  return { enabled, required: auth.twoFactorRequired, recoveryCodesLeft: enabled ? row!.recoveryCodeHashes.length : 0 };
}

export async function setUpTwoFactor(app: FastifyInstance, request: FastifyRequest) {
  const auth = request.auth!;
  if (auth.twoFactorEnabled) {
    throw new AppError(409, 'Two-factor sign-in is already on. Turn it off first to set it up with another device.');
  }
  return beginSetup(app.database.db, auth.userId, auth.email);
}

/** Turns two-factor on; a session that had to enrol becomes a full one. */
export async function confirmTwoFactor(app: FastifyInstance, request: FastifyRequest, code: string) {
  const auth = request.auth!;
  const { db } = app.database;
  const wrongCode = await guardCodeGuessing(app, auth.userId);
  const recoveryCodes = await db.transaction(async (tx) => {
    const row = await findTwoFactor(tx, auth.userId);
    if (!row) throw new AppError(409, 'Start the two-factor setup first.');
    if (row.enabledAt) throw new AppError(409, 'Two-factor sign-in is already on.');
    const codes = await confirmSetup(tx, auth.userId, row, code);
    if (!codes) return null;
    if (auth.stage === 'enrol') await repo.setSessionStage(tx, auth.tokenHash, 'full');
    await audit(tx, request, { action: 'two_factor_on', entity: 'user', entityId: auth.userId });
    return codes;
  });
  return recoveryCodes ?? wrongCode();
}

export async function turnOffTwoFactor(app: FastifyInstance, request: FastifyRequest, code: string) {
  const auth = request.auth!;
  const { db } = app.database;
  if (auth.twoFactorRequired) {
    throw new AppError(403, 'Your role requires two-factor sign-in, so it cannot be turned off.');
  }
  const row = await findTwoFactor(db, auth.userId);
  if (!row?.enabledAt) throw new AppError(409, 'Two-factor sign-in is not on.');
  const wrongCode = await guardCodeGuessing(app, auth.userId);
  if (!(await verifyCode(db, auth.userId, row, code))) await wrongCode();
  await db.transaction(async (tx) => {
    await removeTwoFactor(tx, auth.userId);
    await audit(tx, request, { action: 'two_factor_off', entity: 'user', entityId: auth.userId });
  });
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export async function listSessions(app: FastifyInstance, request: FastifyRequest): Promise<AccountSession[]> {
  const auth = request.auth!;
  const rows = await repo.listSessions(app.database.db, auth.userId);
  return rows.map((r) => ({
    id: r.id,
    ip: r.ip,
    userAgent: r.userAgent,
    createdAt: iso(r.createdAt)!,
    lastUsedAt: iso(r.lastUsedAt),
    current: r.tokenHash === auth.tokenHash,
  }));
}

export async function endSession(app: FastifyInstance, request: FastifyRequest, id: number) {
  const auth = request.auth!;
  const { db } = app.database;
  await db.transaction(async (tx) => {
    // Another account's session id answers exactly like one that does not exist.
    if (!(await repo.deleteOwnSession(tx, auth.userId, id))) throw new AppError(404, 'Session not found');
    await audit(tx, request, { action: 'logout', entity: 'session', entityId: auth.userId, after: { sessionId: id } });
  });
}
