import type { Database } from './db/client.ts';
import type { CountRow } from './db/rows.ts';

/**
 * Rows that matter only for a while, removed in the background so that the tables stay small:
 * a money POST's stored answer 7 days after it was given (a retry after that is a new request;
 * decisions.md), failed sign-ins a day after they happened (or after the sign-in window, if longer),
 * expired sessions, expired or used password-reset links, and two-factor setups never confirmed
 * within a day (a secret shown once and abandoned). The audit log is kept for good.
 * Each table is cleared in batches, each its own short statement, so that neither PostgreSQL
 * nor the one PGlite connection is held for long; several copies sweeping at once do no harm.
 */
export const RETENTION = { idempotencyKeysDays: 7, loginFailuresHours: 24, twoFactorSetupHours: 24 } as const;
const BATCH = 5000;

const sweeps = (loginWindowMinutes: number): Record<string, string> => ({
  idempotencyKeys: `delete from idempotency_keys where ctid = any (array(
    select ctid from idempotency_keys where created_at < now() - make_interval(days => ${RETENTION.idempotencyKeysDays}) limit ${BATCH}))`,
  loginFailures: `delete from login_failures where id = any (array(
    select id from login_failures
     where created_at < now() - make_interval(mins => ${Math.max(RETENTION.loginFailuresHours * 60, Math.ceil(loginWindowMinutes))}) limit ${BATCH}))`,
  sessions: `delete from sessions where token_hash = any (array(
    select token_hash from sessions where expires_at < now() limit ${BATCH}))`,
  passwordResets: `delete from password_resets where token_hash = any (array(
    select token_hash from password_resets where expires_at < now() or used_at is not null limit ${BATCH}))`,
  twoFactorSetups: `delete from two_factor where user_id = any (array(
    select user_id from two_factor
     where enabled_at is null and created_at < now() - make_interval(hours => ${RETENTION.twoFactorSetupHours}) limit ${BATCH}))`,
});

/** One sweep of every table; how many rows each lost. */
export async function sweep(database: Database, loginWindowMinutes: number): Promise<Record<string, number>> {
  const removed: Record<string, number> = {};
  for (const [name, sql] of Object.entries(sweeps(loginWindowMinutes))) {
    removed[name] = 0;
    for (;;) {
      const [{ n }] = await database.query<CountRow>(`with gone as (${sql} returning 1) select count(*)::int as n from gone`);
      removed[name] += n;
      if (n < BATCH) break;
    }
  }
  return removed;
}

/**
 * Sweeps a minute after start-up, then every ten minutes; returns the function that stops it
 * (and waits for a sweep under way). A failed sweep is logged and tried again next time.
 */
export function startHousekeeping(
  database: Database,
  loginWindowMinutes: number,
  log: (message: string) => void,
  { firstAfterMs = 60_000, everyMinutes = 10 } = {},
): () => Promise<void> {
  let running: Promise<void> | null = null;
  let interval: NodeJS.Timeout | undefined;
  const run = () => {
    if (running) return; // the last sweep is still at work
    running = sweep(database, loginWindowMinutes).then(
      (removed) => {
        const total = Object.values(removed).reduce((a, b) => a + b, 0);
        if (total > 0) log(`housekeeping removed ${Object.entries(removed).map(([t, n]) => `${n} ${t}`).join(', ')}`);
      },
      (error: unknown) => log(`housekeeping failed (tried again in ${everyMinutes} minutes): ${String(error)}`),
    ).finally(() => {
      running = null;
    });
  };
  const first = setTimeout(() => {
    run();
    interval = setInterval(run, everyMinutes * 60_000);
    interval.unref();
  }, firstAfterMs);
  first.unref();
  return async () => {
    clearTimeout(first);
    if (interval) clearInterval(interval);
    await running;
  };
}
