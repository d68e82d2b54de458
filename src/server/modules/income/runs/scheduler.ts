import { sql } from 'drizzle-orm';
import type { RunKind } from '../../../../contract/income-runs.ts';
import { rowsOf, type Database, type Db } from '../../../db/client.ts';
import { audit } from '../../../lib/audit.ts';
import { addDays, settingsTimeline, type SettingsTimeline } from '../settings.ts';
import { configureRuns, kick, resumeRuns, startRun, stopRuns } from './engine.ts';
import { RUN_HANDLERS } from './kinds.ts';
import { periodIn } from './periods.ts';
import * as repo from './runs.repository.ts';

/**
 * The engine's schedule (issue 16). Every minute, for each kind in RUN_HANDLERS' order, every due
 * period not yet run is run, oldest first, one after the other (catch-up after downtime): from the
 * first day the oldest active membership earns, looking back at most LOOK_BACK_DAYS days. A period
 * is due when its kind says so (daily payout: a business day whose payout time has passed, India
 * time). A period whose run failed is resumed and nothing later of that kind starts before it
 * completes; a period whose run an operator reversed is left alone (an operator runs it again).
 * ENGINE_SCHEDULE=off turns the schedule off; runs left 'running' by a crash are resumed at start-up
 * either way.
 */
export const LOOK_BACK_DAYS = 60;

export interface Now {
  day: string;
  time: string;
}

export async function istNow(db: Db): Promise<Now> {
  const [row] = rowsOf<Now>(await db.execute(sql`
    select to_char(now() at time zone 'Asia/Kolkata', 'YYYY-MM-DD') as day, to_char(now() at time zone 'Asia/Kolkata', 'HH24:MI') as time`));
  return row;
}

/** Runs the kind's due periods in order; returns the runs it started or went on with. */
async function catchUp(database: Database, kind: RunKind, now: Now, timeline: SettingsTimeline, halted: () => boolean) {
  const { db } = database;
  const handler = RUN_HANDLERS[kind];
  const first = await repo.firstEarningDay(db);
  if (!first) return [];
  const lookBack = addDays(now.day, -LOOK_BACK_DAYS);
  const from = first > lookBack ? first : lookBack;
  if (from > now.day) return [];
  const held = new Map<string, string>();
  for (const r of await repo.runsSince(db, kind, addDays(from, -45))) {
    if (r.status !== 'reversed' || !held.has(r.periodStart)) held.set(r.periodStart, r.status);
  }
  const worked: number[] = [];
  const seen = new Set<string>();
  for (let day = from; day <= now.day && !halted(); day = addDays(day, 1)) {
    const period = periodIn(handler, day, timeline);
    if (seen.has(period.start)) continue;
    seen.add(period.start);
    if (!handler.isDue(period, timeline.on(period.start), now)) continue;
    const status = held.get(period.start);
    if (status === 'completed' || status === 'reversed') continue;
    const started = await startRun(database, { kind, day: period.start, startedBy: null });
    if (started.created) {
      await audit(db, null, {
        action: 'income_run_started', entity: 'income_run', entityId: started.run.runId,
        after: { kind, periodStart: period.start, periodEnd: period.end, scheduled: true },
      });
    }
    worked.push(started.run.runId);
    await kick(database, started.run.runId);
    const after = await repo.runById(db, started.run.runId);
    if (after?.status !== 'completed') break; // in order: nothing later before this one is done
  }
  return worked;
}

/** One pass of the schedule: every kind's due periods, in order. */
export async function scheduleTick(
  database: Database, options: { now?: Now; halted?: () => boolean; kinds?: RunKind[] } = {},
): Promise<number[]> {
  const now = options.now ?? (await istNow(database.db));
  const halted = options.halted ?? (() => false);
  const timeline = await settingsTimeline(database.db);
  const worked: number[] = [];
  const refused: string[] = [];
  for (const kind of options.kinds ?? (Object.keys(RUN_HANDLERS) as RunKind[])) {
    if (halted()) break;
    try {
      worked.push(...(await catchUp(database, kind, now, timeline, halted)));
    } catch (error) {
      // One kind that cannot go on (e.g. a period overlapping a run made before issue 22) does not
      // hold up the kinds after it; the tick reports it (and tries again next minute).
      refused.push(`${kind}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (refused.length > 0) throw new Error(`income schedule: ${refused.join('; ')} (the other kinds ran: ${worked.join(', ') || 'none due'})`);
  return worked;
}

/**
 * Start-up: resumes the runs a crash left 'running', then (unless `schedule` is false) runs the
 * schedule a few seconds after start and every minute. Returns the function that stops it (and
 * waits for the pass and the chunk under way). Timers are unref'd: they never hold the process.
 */
export function startEngine(
  database: Database,
  log: (message: string) => void,
  { schedule = true, firstAfterMs = 5_000, everyMs = 60_000 } = {},
): () => Promise<void> {
  configureRuns(database, { log });
  let stopped = false;
  let running: Promise<void> | null = null;
  let interval: NodeJS.Timeout | undefined;
  const resumed = resumeRuns(database).then(
    (ids) => {
      if (ids.length > 0) log(`income runs resumed after a restart: ${ids.join(', ')}`);
    },
    (error: unknown) => log(`resuming income runs failed: ${String(error)}`),
  );
  const tick = () => {
    if (running || stopped) return;
    running = resumed
      .then(() => scheduleTick(database, { halted: () => stopped }))
      .then(
        (ids) => {
          if (ids.length > 0) log(`income schedule worked runs ${ids.join(', ')}`);
        },
        (error: unknown) => log(`income schedule failed (tried again in a minute): ${String(error)}`),
      )
      .finally(() => {
        running = null;
      });
  };
  const first = schedule ? setTimeout(() => {
    tick();
    interval = setInterval(tick, everyMs);
    interval.unref();
  }, firstAfterMs) : undefined;
  first?.unref();
  return async () => {
    stopped = true;
    if (first) clearTimeout(first);
    if (interval) clearInterval(interval);
    await stopRuns(database);
    await resumed;
    await running;
  };
}
