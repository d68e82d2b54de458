import type { AccountSession, TwoFactorSetup, TwoFactorStatus } from '../../../contract/account.ts';
import { audit } from '../../lib/audit.ts';
import type { AuthContext, Ctx } from '../../lib/context.ts';
import { AppError, invalidInput } from '../../lib/errors.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import { mailLink } from '../../mailer.ts';
import * as repo from './auth.repository.ts';
import { reserveCodeGuess, reserveGuess } from './attempts.ts';
import { INVALID_CODE } from './auth.service.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { assertUsablePassword } from './password-policy.ts';
import { beginSetup, confirmSetup, findTwoFactor, removeTwoFactor, verifyCode } from './two-factor.ts';

/** The signed-in account's own two-factor sign-in and sessions: `ctx.auth` is always set here. */

function signedIn(ctx: Ctx): AuthContext {
  if (!ctx.auth) throw new Error('This call needs a signed-in account');
  return ctx.auth;
}

/**
 * Someone holding a session (stolen, or a not-yet-enrolled one) must not guess codes without end to
 * switch two-factor on or off: wrong codes are counted per account, with those of sign-in.
 */
async function guardCodeGuessing(ctx: Ctx, userId: number) {
  return guessed(await reserveCodeGuess(ctx.database.db, ctx.config.loginWindowMinutes, userId), INVALID_CODE);
}

/** A guess of the account's password, counted per account (reserveGuess). */
async function guardPasswordGuessing(ctx: Ctx, userId: number, wrongMessage: string) {
  return guessed(await reserveGuess(ctx.database.db, ctx.config.loginWindowMinutes, `password:${userId}`, 'wrong passwords'), wrongMessage);
}

/** A reserved guess: `right()` gives the reservation back, `wrong()` keeps it and answers 400. */
const guessed = (right: () => Promise<void>, wrongMessage: string) => ({
  right,
  wrong: (): never => {
    throw new AppError(400, wrongMessage);
  },
});

/** How long the link that makes a new address the sign-in email works. */
const EMAIL_LINK_MS = 72 * 3600 * 1000;

/**
 * The account asks to change its own sign-in email (the only other way is the Staff screen, and
 * only for someone else's account). Its password is asked again, so a session left open cannot
 * redirect the account's reset mail. Nothing changes yet: a single-use link is mailed to the new
 * address, and following it makes that the sign-in email (auth.service confirmEmail), when links
 * sent to the old address stop working. An address it does not hold is never the account's: an
 * unproven one let a self-registered account squat a future colleague's address, so that their
 * invitation was refused and the account the Staff screen showed under it was given their role.
 * Answers the mail's delivery (not awaited by the answer).
 */
export async function changeOwnEmail(ctx: Ctx, input: { email: string; password: string }): Promise<{ delivery: Promise<void> }> {
  const { email, password } = input;
  const auth = signedIn(ctx);
  const { db } = ctx.database;
  const guess = await guardPasswordGuessing(ctx, auth.userId, 'Your password is not correct');
  if (!(await verifyPassword(password, await repo.passwordHashOf(db, auth.userId)))) guess.wrong();
  await guess.right();
  if (email === auth.email) throw new AppError(409, 'This is already your sign-in email');
  if (await repo.emailTakenByOther(db, email, auth.userId)) throw new AppError(409, 'An account with this email already exists');
  const token = newToken();
  await db.transaction(async (tx) => {
    await repo.voidLinks(tx, auth.userId, 'email');
    await repo.createPasswordReset(tx, {
      tokenHash: hashToken(token), userId: auth.userId, expiresAt: new Date(Date.now() + EMAIL_LINK_MS), purpose: 'email', newEmail: email,
    });
    await audit(tx, ctx, { action: 'request_email_change', entity: 'user', entityId: auth.userId, before: { email: auth.email }, after: { email } });
  });
  return { delivery: ctx.mailer.sendEmailChange(email, auth.fullName, mailLink(ctx.config, 'confirm-email', token)) };
}

/**
 * The account changes its own password (issue 24): the current password is asked again (wrong ones
 * counted like the email change's, 429 after MAX_WRONG_CODES), the new one must meet the password
 * policy and differ from the current one. Every other session of the account is signed out (this
 * one stays), reset links mailed before stop working, and it is audited.
 */
export async function changeOwnPassword(ctx: Ctx, input: { currentPassword: string; newPassword: string }) {
  const { currentPassword, newPassword } = input;
  const auth = signedIn(ctx);
  const { db } = ctx.database;
  const guess = await guardPasswordGuessing(ctx, auth.userId, 'Your current password is not correct');
  const currentHash = await repo.passwordHashOf(db, auth.userId);
  if (!(await verifyPassword(currentPassword, currentHash))) guess.wrong();
  await guess.right();
  if (newPassword === currentPassword) {
    throw invalidInput([{ path: 'body.newPassword', field: 'newPassword', message: 'Choose a password different from your current one' }]);
  }
  await assertUsablePassword(newPassword, 'newPassword', [auth.email, auth.name]);
  const passwordHash = await hashPassword(newPassword);
  await db.transaction(async (tx) => {
    await repo.setPassword(tx, auth.userId, passwordHash);
    await repo.voidPasswordResets(tx, auth.userId);
    const ended = await repo.deleteOtherSessions(tx, auth.userId, auth.tokenHash);
    await audit(tx, ctx, { action: 'change_password', entity: 'user', entityId: auth.userId, after: { otherSessionsSignedOut: ended } });
  });
}

export async function twoFactorStatus(ctx: Ctx): Promise<TwoFactorStatus> {
  const auth = signedIn(ctx);
  const row = await findTwoFactor(ctx.database.db, auth.userId);
  const enabled = row?.enabledAt != null;
  return { enabled, required: auth.twoFactorRequired, recoveryCodesLeft: enabled ? row!.recoveryCodeHashes.length : 0 };
}

export async function setUpTwoFactor(ctx: Ctx): Promise<TwoFactorSetup> {
  const auth = signedIn(ctx);
  if (auth.twoFactorEnabled) {
    throw new AppError(409, 'Two-factor sign-in is already on. Turn it off first to set it up with another device.');
  }
  return beginSetup(ctx.database.db, auth.userId, auth.email);
}

/** Turns two-factor on; a session that had to enrol becomes a full one. */
export async function confirmTwoFactor(ctx: Ctx, code: string): Promise<string[]> {
  const auth = signedIn(ctx);
  const { db } = ctx.database;
  const guess = await guardCodeGuessing(ctx, auth.userId);
  const recoveryCodes = await db.transaction(async (tx) => {
    const row = await findTwoFactor(tx, auth.userId);
    if (!row) throw new AppError(409, 'Start the two-factor setup first.');
    if (row.enabledAt) throw new AppError(409, 'Two-factor sign-in is already on.');
    const codes = await confirmSetup(tx, auth.userId, row, code);
    if (!codes) return null;
    if (auth.stage === 'enrol') await repo.setSessionStage(tx, auth.tokenHash, 'full');
    await audit(tx, ctx, { action: 'two_factor_on', entity: 'user', entityId: auth.userId });
    return codes;
  }).catch(async (error: unknown) => {
    await guess.right(); // not a guess: nothing to set up, or already on
    throw error;
  });
  if (!recoveryCodes) return guess.wrong();
  await guess.right();
  return recoveryCodes;
}

export async function turnOffTwoFactor(ctx: Ctx, code: string) {
  const auth = signedIn(ctx);
  const { db } = ctx.database;
  if (auth.twoFactorRequired) {
    throw new AppError(403, 'Your role requires two-factor sign-in, so it cannot be turned off.');
  }
  const row = await findTwoFactor(db, auth.userId);
  if (!row?.enabledAt) throw new AppError(409, 'Two-factor sign-in is not on.');
  const guess = await guardCodeGuessing(ctx, auth.userId);
  if (!(await verifyCode(db, auth.userId, row, code))) guess.wrong();
  await guess.right();
  await db.transaction(async (tx) => {
    await removeTwoFactor(tx, auth.userId);
    await audit(tx, ctx, { action: 'two_factor_off', entity: 'user', entityId: auth.userId });
  });
}

export async function listSessions(ctx: Ctx): Promise<AccountSession[]> {
  const auth = signedIn(ctx);
  const rows = await repo.listSessions(ctx.database.db, auth.userId);
  return rows.map((r) => repo.toAccountSession(r, auth.tokenHash));
}

export async function endSession(ctx: Ctx, id: number) {
  const auth = signedIn(ctx);
  const { db } = ctx.database;
  await db.transaction(async (tx) => {
    // Another account's session id answers exactly like one that does not exist.
    if (!(await repo.deleteOwnSession(tx, auth.userId, id))) throw new AppError(404, 'Session not found');
    await audit(tx, ctx, { action: 'logout', entity: 'session', entityId: auth.userId, after: { sessionId: id } });
  });
}
