import { createHash, randomInt } from 'node:crypto';
import { and, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { Db } from '../../db/client.ts';
import { twoFactor } from '../../db/schema/system.ts';

/** RFC 6238 with the parameters every authenticator app assumes: SHA-1, 6 digits, 30-second steps. */
const PERIOD_SECONDS = 30;
/** One step either side, for a phone clock a little off. */
const WINDOW = 1;
const ISSUER = 'Backoffice';
const RECOVERY_CODES = 10;
/** RFC 4648 base32 letters: no 0/1/8/9, so a code read aloud or copied by hand is not confused. */
const RECOVERY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

export type TwoFactorRow = Pick<typeof twoFactor.$inferSelect, 'secret' | 'enabledAt' | 'recoveryCodeHashes' | 'lastStep'>;

export async function findTwoFactor(db: Db, userId: number): Promise<TwoFactorRow | null> {
  const [row] = await db
    .select({
      secret: twoFactor.secret,
      enabledAt: twoFactor.enabledAt,
      recoveryCodeHashes: twoFactor.recoveryCodeHashes,
      lastStep: twoFactor.lastStep,
    })
    .from(twoFactor)
    .where(eq(twoFactor.userId, userId))
    .limit(1);
  return row ?? null;
}

/** A new secret for enrolment, in force only once a code from it is confirmed. */
export async function beginSetup(db: Db, userId: number, email: string) {
  const secret = new Secret({ size: 20 });
  await db
    .insert(twoFactor)
    .values({ userId, secret: secret.base32 })
    .onConflictDoUpdate({
      target: twoFactor.userId,
      set: { secret: secret.base32, enabledAt: null, recoveryCodeHashes: sql`'{}'::text[]`, lastStep: null, createdAt: sql`now()` },
      // An enabled second factor is replaced only after it is turned off (with a code).
      setWhere: isNull(twoFactor.enabledAt),
    });
  const totp = new TOTP({ issuer: ISSUER, label: email, secret, period: PERIOD_SECONDS });
  const otpauthUrl = totp.toString();
  const qrDataUrl = await QRCode.toDataURL(otpauthUrl, { errorCorrectionLevel: 'M', margin: 2, width: 240 });
  return { secret: secret.base32, otpauthUrl, qrDataUrl };
}

/** The time step a 6-digit code belongs to, or null when it fits no step of the window. */
function matchingStep(secret: string, code: string): number | null {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), period: PERIOD_SECONDS });
  const now = Date.now();
  const delta = totp.validate({ token: code, timestamp: now, window: WINDOW });
  return delta === null ? null : totp.counter({ timestamp: now }) + delta;
}

/**
 * Accepts a code of the account's authenticator once: the step is recorded in the same statement
 * that checks it was not used yet, so a code seen over a shoulder (or sent twice at once) fails.
 */
async function useTotpCode(db: Db, userId: number, row: TwoFactorRow, code: string): Promise<boolean> {
  const step = matchingStep(row.secret, code);
  if (step === null) return false;
  const used = await db
    .update(twoFactor)
    .set({ lastStep: step })
    .where(and(eq(twoFactor.userId, userId), or(isNull(twoFactor.lastStep), lt(twoFactor.lastStep, step))))
    .returning({ userId: twoFactor.userId });
  return used.length > 0;
}

const hashRecoveryCode = (code: string) =>
  createHash('sha256').update(code.toLowerCase().replace(/-/g, '')).digest('hex');

/** Spends one recovery code; false when it is not one of the account's unused codes. */
async function useRecoveryCode(db: Db, userId: number, code: string): Promise<boolean> {
  const hash = hashRecoveryCode(code);
  const used = await db
    .update(twoFactor)
    .set({ recoveryCodeHashes: sql`array_remove(${twoFactor.recoveryCodeHashes}, ${hash})` })
    .where(and(eq(twoFactor.userId, userId), isNotNull(twoFactor.enabledAt), sql`${hash} = any(${twoFactor.recoveryCodeHashes})`))
    .returning({ userId: twoFactor.userId });
  return used.length > 0;
}

/** Checks a sign-in (or turn-off) code of an enabled second factor: an authenticator code or a recovery code. */
export async function verifyCode(db: Db, userId: number, row: TwoFactorRow, code: string): Promise<boolean> {
  return /^\d{6}$/.test(code) ? useTotpCode(db, userId, row, code) : useRecoveryCode(db, userId, code);
}

function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

/**
 * Turns the second factor on when the code fits the secret being set up; returns the recovery
 * codes (only their hashes are stored), or null for a wrong code.
 */
export async function confirmSetup(db: Db, userId: number, row: TwoFactorRow, code: string): Promise<string[] | null> {
  const step = matchingStep(row.secret, code);
  if (step === null) return null;
  const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  const enabled = await db
    .update(twoFactor)
    .set({ enabledAt: sql`now()`, lastStep: step, recoveryCodeHashes: codes.map(hashRecoveryCode) })
    .where(and(eq(twoFactor.userId, userId), isNull(twoFactor.enabledAt), eq(twoFactor.secret, row.secret)))
    .returning({ userId: twoFactor.userId });
  return enabled.length > 0 ? codes : null;
}

export async function removeTwoFactor(db: Db, userId: number) {
  await db.delete(twoFactor).where(eq(twoFactor.userId, userId));
}
