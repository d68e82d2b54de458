
/**
 * Deadlocks and serialization failures are tried again (issue 22, finding 8). PostgreSQL answers
 * 40P01 (deadlock detected: it rolled one of the transactions back) or 40001 (could not serialize)
 * when two transactions lock the same rows in another order; the transaction that lost wrote
 * nothing, so doing it again from the start is safe and almost always succeeds once the other has
 * committed. Every top-level `db.transaction` of both drivers goes through `withRetries`
 * (`retryingTransactions`), so every request's transaction — the money wrapper's and the plain
 * ones — is tried up to TRANSACTION_TRIES times with a growing, jittered pause; what still fails
 * reaches the errors plugin, which answers 503 ("try again"), never 500. A transaction's work must
 * therefore do nothing outside the database that cannot be done twice (work for after the commit
 * is returned, as MoneyResult.afterCommit does).
 */

/** Tries in all (the first and four more). */
export const TRANSACTION_TRIES = 5;

const RETRYABLE_STATES = new Set(['40P01', '40001']);
/** Set on an error that has used up its tries, so an outer retry loop does not multiply them. */
const EXHAUSTED = Symbol('retries exhausted');

/** The SQLSTATE of a driver error, or of the error it wraps (Drizzle keeps it on `cause`). */
export function sqlStateOf(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** A deadlock or serialization failure: the transaction was rolled back, and trying again is safe. */
export function isRetryable(error: unknown): boolean {
  if (error && typeof error === 'object' && EXHAUSTED in error) return false;
  const state = sqlStateOf(error);
  return state !== undefined && RETRYABLE_STATES.has(state);
}

/** Whether the error is a deadlock or serialization failure (tried or not): the errors plugin's 503. */
export const isConflictFailure = (error: unknown) => RETRYABLE_STATES.has(sqlStateOf(error) ?? '');

/** The pause before try `attempt + 1`: up to 20 ms × 2^attempt (40, 80, 160, 320 ms), at random (full jitter). */
export function retryPause(attempt: number): Promise<void> {
  const ms = Math.random() * 20 * 2 ** Math.min(attempt, 6);
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Runs `work`, again after a deadlock or serialization failure, at most `tries` times in all. The
 * last failure is thrown marked as exhausted (isRetryable says no), so a loop around this one
 * does not try it again.
 */
export async function withRetries<T>(work: () => Promise<T>, tries = TRANSACTION_TRIES, onRetry?: (error: unknown, attempt: number) => void): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isRetryable(error)) throw error;
      if (attempt >= tries) {
        if (error && typeof error === 'object') Object.defineProperty(error, EXHAUSTED, { value: true });
        throw error;
      }
      onRetry?.(error, attempt);
      await retryPause(attempt);
    }
  }
}

/** `db` whose top-level transactions are tried again after a deadlock or serialization failure. */
export function retryingTransactions<D extends { transaction(...args: never[]): Promise<unknown> }>(db: D): D {
  const transaction = db.transaction.bind(db) as (...args: unknown[]) => Promise<unknown>;
  db.transaction = ((...args: unknown[]) => withRetries(() => transaction(...args))) as D['transaction'];
  return db;
}
