import { isIPv4, isIPv6 } from 'node:net';
import type { FastifyReply } from 'fastify';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import * as repo from './auth.repository.ts';

/**
 * Attempt limits that hold under concurrency (issue 22, finding 6). An attempt is reserved BEFORE
 * anything is checked: under an advisory lock per key (every server copy shares them through
 * PostgreSQL), the attempts of the window are counted and, when the rule allows one more, a row
 * per key is written in the same transaction. So of 200 concurrent guesses at most the limit are
 * ever checked; the others are refused (429) without looking at the password or code. The caller
 * keeps the reservation when the attempt counts (a wrong password, a reset mail) and releases it
 * when it does not (a right password).
 */

/** A refusal that says when to come back: 429 with Retry-After (seconds). */
export class TooManyAttempts extends AppError {
  constructor(message: string, readonly retryAfterSeconds: number) {
    super(429, message);
  }
}

/** Runs a route's work; a refusal for too many attempts says when to come back: the Retry-After header (seconds). */
export async function withRetryAfter<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof TooManyAttempts) reply.header('retry-after', String(error.retryAfterSeconds));
    throw error;
  }
}

/** "in 15 minutes", "in 40 seconds": when a refused attempt may be made again. */
export function waitText(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** What the window holds for one key: the ages (seconds) of its attempts, oldest first. */
export interface KeyAttempts {
  count: number;
  /** Seconds since the newest attempt, or null when there is none in the window. */
  newestAge: number | null;
  ages: number[];
}

export interface Limit {
  key: string;
  /** At most this many attempts in the window; the next one is refused. */
  max: number;
}

export interface Reservation {
  ids: number[];
}

/**
 * Seconds until `limit` admits one more attempt, or 0 when it does now: the attempt that has to
 * leave the window for the count to drop below the limit is the (count - max + 1)-th oldest.
 */
export function secondsUntilFree(attempts: KeyAttempts, max: number, windowSeconds: number): number {
  if (attempts.count < max) return 0;
  const leaving = attempts.ages[attempts.count - max];
  return Math.max(1, Math.ceil(windowSeconds - leaving));
}

/**
 * Reserves one attempt under every key of `limits` (and of `extraKeys`), or answers how many
 * seconds to wait: the first limit that is full, or `rule` (more checks on the same counts, such
 * as the account delay of sign-in) when it returns a wait above 0.
 */
export async function reserve(
  db: Db,
  options: { limits: Limit[]; windowMinutes: number; extraKeys?: string[]; rule?: (attempts: (key: string) => KeyAttempts) => number },
): Promise<Reservation | { retryAfterSeconds: number }> {
  const { limits, windowMinutes, extraKeys = [], rule } = options;
  const windowSeconds = windowMinutes * 60;
  const keys = [...new Set([...limits.map((l) => l.key), ...extraKeys])];
  return repo.reserveAttempts(db, keys, windowMinutes, (attempts) => {
    let wait = 0;
    for (const limit of limits) wait = Math.max(wait, secondsUntilFree(attempts(limit.key), limit.max, windowSeconds));
    if (wait === 0 && rule) wait = rule(attempts);
    return wait;
  });
}

export const released = (db: Db, reservation: Reservation) => repo.releaseAttempts(db, reservation.ids);

/** Wrong guesses of a secret the account itself holds (a code, its password) per window, before 429. */
export const MAX_WRONG_CODES = 5;

/**
 * Reserves one guess under `key` before it is checked (so concurrent guesses cannot all slip under
 * the limit): 429 once MAX_WRONG_CODES are in the window, whatever the address. A wrong guess keeps
 * its reservation; the returned function gives it back after a right one.
 */
export async function reserveGuess(db: Db, windowMinutes: number, key: string, what: string): Promise<() => Promise<void>> {
  const reservation = await reserve(db, { windowMinutes, limits: [{ key, max: MAX_WRONG_CODES }] });
  if ('retryAfterSeconds' in reservation) {
    const seconds = reservation.retryAfterSeconds;
    throw new TooManyAttempts(`Too many ${what}. Please try again in ${waitText(seconds)}.`, seconds);
  }
  return () => released(db, reservation);
}

/**
 * An account's two-factor codes: sign-in, enrolment and turning it off share one count per
 * account, so a password holder guessing from many addresses is checked at most MAX_WRONG_CODES
 * times a window.
 */
export const reserveCodeGuess = (db: Db, windowMinutes: number, userId: number) =>
  reserveGuess(db, windowMinutes, `totp:${userId}`, 'wrong two-factor codes');

/**
 * The address an attempt is counted against: an IPv4 address (also when written IPv4-mapped,
 * ::ffff:1.2.3.4), or an IPv6 address's /64 network — one subscriber line or machine holds a
 * whole /64, so counting single IPv6 addresses would hand an attacker 2^64 fresh "addresses".
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  if (!isIPv6(ip)) return ip;
  const [head, tail = ''] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = ip.includes('::') && tail ? tail.split(':') : [];
  // An embedded IPv4 tail (…:1.2.3.4) takes two groups; it lies beyond the first four anyway.
  const groups = ip.includes('::') ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}
