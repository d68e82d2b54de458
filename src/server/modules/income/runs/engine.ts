import { sql } from 'drizzle-orm';
import { isoToWireDate } from '../../../../contract/common.ts';
import { DEFAULT_INCOME_SETTINGS } from '../../../../contract/income.ts';
import { RUN_KINDS, type RunKind } from '../../../../contract/income-runs.ts';
import { rowsOf, type Database, type Db } from '../../../db/client.ts';
import { isRetryable, retryPause } from '../../../db/retry.ts';
import type { LockRow } from '../../../db/rows.ts';
import { AppError } from '../../../lib/errors.ts';
import type { MoneyResult } from '../../../lib/money/movement.ts';
import { istToday, settingsTimeline, type SettingsInForce, type SettingsTimeline } from '../settings.ts';
import type { RunPeriod, Tally } from './kind.ts';
import { RUN_HANDLERS } from './kinds.ts';
import { lockKind, periodIn, refuseOverlap, refuseUnpaid } from './periods.ts';
import { reversalChunk } from './reversal.ts';
import * as repo from './runs.repository.ts';

/**
 * The run engine (issue 16), the same for every kind (kinds.ts):
 * - a run is a kind and a period, exactly once: the insert meets the partial unique index
 *   income_runs_once_uq, so of two starts (two requests, two server copies) one inserts and the
 *   other answers the first run;
 * - the run's first transaction inserts it and `begin`s it (settings in force on the period's start,
 *   what the kind fixes for the run, its income batch, its slices); then its chunks are worked in
 *   the background, each chunk one transaction: a transaction-level advisory lock on the run's
 *   slice (a copy that can't take it waits and tries again until the slice moves or is done: a
 *   crashed copy's backend may hold it a while), the run row re-read,
 *   the kind's `step`, and the slice's cursor and the run's totals moved, guarded by the cursor
 *   read. A crash leaves whole chunks; the run goes on from its cursors at the next start-up
 *   (`resumeRuns`) or schedule tick;
 * - slices: a kind that can split (its units write disjoint members: the daily payout) is worked
 *   as two slices by id side by side on PostgreSQL (two connections, both cores); PGlite is one
 *   connection, so one slice. A chunk that loses a deadlock to the other slice is retried;
 * - a chunk that throws marks the run 'failed' with the error; starting the period again (POST
 *   start, or the schedule) resumes it from its cursors;
 * - a reversal (reversal.ts) is worked range of members by range the same way: the request does
 *   the first range, the workers the rest (status 'reversing' until its last range).
 */

/**
 * Units per chunk (one transaction). PostgreSQL: 40,000 (≈ 4 s a chunk; half the per-chunk
 * overhead of 20,000: 53 s instead of 57 s for the 1,000,000 daily payout). PGlite is one
 * connection that every request waits behind, so its chunks stay at 20,000 (≈ 2 s).
 */
export const CHUNK_SIZE = 20_000;
const POSTGRES_CHUNK_SIZE = 40_000;
/** The advisory lock's first key plus the slice (the second is the run id): "a copy is working this slice". */
export const RUN_LOCK = 800_916;
/** Slices worked side by side on PostgreSQL (one per core of the 2-core machine the targets are set on). */
const POSTGRES_SLICES = 2;
/** A chunk that lost a deadlock or a serialization check to the other slice is tried again this often. */
const RETRIES = 5;

export const kindLabel = (kind: RunKind) => RUN_KINDS.find((k) => k.value === kind)?.label ?? kind;
const wire = isoToWireDate;

/** Test seam: what a slice's worker does before its n-th chunk ('halt': stop as a crashed process would). */
type BeforeChunk = (runId: number, chunk: number, slice: number) => void | 'halt';

interface Workers {
  running: Map<number, Promise<void>>;
  stopping: boolean;
  chunkSize: number;
  /** Slices a new run of a kind that can split is cut into. */
  slices: number;
  beforeChunk?: BeforeChunk;
  log: (message: string) => void;
  /** Wakes the workers waiting for a lock held elsewhere (shutdown). */
  wakers: Set<() => void>;
}

const registry = new WeakMap<Database, Workers>();

function workersOf(database: Database): Workers {
  let w = registry.get(database);
  if (!w) {
    w = { running: new Map(), stopping: false, chunkSize: database.kind === 'postgres' ? POSTGRES_CHUNK_SIZE : CHUNK_SIZE, slices: database.kind === 'postgres' ? POSTGRES_SLICES : 1, log: () => {}, wakers: new Set() };
    registry.set(database, w);
  }
  return w;
}

/** Chunk size, slices (1 on PGlite, always), a logger for failures, and (tests) a hook before each chunk. */
export function configureRuns(
  database: Database,
  options: { chunkSize?: number; slices?: number; beforeChunk?: BeforeChunk | null; log?: (m: string) => void },
) {
  const w = workersOf(database);
  if (options.chunkSize !== undefined) w.chunkSize = options.chunkSize;
  if (options.slices !== undefined && database.kind === 'postgres') w.slices = options.slices;
  if (options.beforeChunk !== undefined) w.beforeChunk = options.beforeChunk ?? undefined;
  if (options.log) w.log = options.log;
}

/** A chunk's outcome: go on, stop (done, or not running any more), or busy (another connection holds the slice's lock). */
type ChunkOutcome = 'more' | 'stop' | 'busy';

/**
 * A slice (or a reversal) whose lock another connection holds is tried again until it moves
 * (issue 22, finding 9): the holder may be a live copy working it — it finishes, and this worker
 * then finds nothing left — or a crashed one whose backend PostgreSQL has not yet noticed is gone.
 * The pause grows from BUSY_FIRST_MS to BUSY_MAX_MS (jittered); shutdown cuts it short.
 */
const BUSY_FIRST_MS = 200;
const BUSY_MAX_MS = 5_000;

function whileBusy(w: Workers, waits: number): Promise<void> {
  const ms = Math.min(BUSY_MAX_MS, BUSY_FIRST_MS * 2 ** Math.min(waits, 10)) * (0.5 + Math.random() / 2);
  return new Promise((resolve) => {
    const wake = () => {
      clearTimeout(timer);
      w.wakers.delete(wake);
      resolve();
    };
    const timer = setTimeout(wake, ms);
    w.wakers.add(wake);
  });
}

class Conflict extends Error {}


async function chunk(tx: Db, runId: number, slice: number, size: number): Promise<ChunkOutcome> {
  const [lock] = rowsOf<LockRow>(await tx.execute(sql`select pg_try_advisory_xact_lock(${RUN_LOCK + slice}, ${runId}::int) as locked`));
  if (!lock.locked) return 'busy';
  const run = await repo.runById(tx, runId);
  const from = run?.cursors[slice];
  if (!run || run.status !== 'running' || from === undefined || from === -1) return 'stop';
  const upTo = slice < run.sliceEnds.length ? run.sliceEnds[slice] : undefined;
  const result = await RUN_HANDLERS[run.kind].step(tx, repo.scopeOf(run), from, size, upTo);
  if (!(await repo.advance(tx, runId, slice, from, result))) throw new Conflict('the run moved on under this chunk');
  return result.done ? 'stop' : 'more';
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function workSlice(database: Database, runId: number, slice: number): Promise<void> {
  const w = workersOf(database);
  for (let n = 1, tries = 0, waits = 0; ; ) {
    if (w.stopping) return;
    try {
      if (w.beforeChunk?.(runId, n, slice) === 'halt') return;
      const outcome = await database.db.transaction((tx) => chunk(tx, runId, slice, w.chunkSize));
      tries = 0;
      if (outcome === 'busy') {
        const run = await repo.runById(database.db, runId);
        if (!run || run.status !== 'running' || run.cursors[slice] === -1) return;
        if (waits === 0) w.log(`income run ${runId}: slice ${slice} is locked by another connection (a copy working it, or one that crashed); trying again until it moves`);
        await whileBusy(w, waits++);
        continue;
      }
      waits = 0;
      n += 1;
      if (outcome === 'stop') return;
    } catch (error) {
      if (error instanceof Conflict) return; // another worker has it
      // db.transaction has already tried the chunk again (db/retry.ts); this covers the rest of a step.
      if (isRetryable(error) && ++tries <= RETRIES) {
        await retryPause(tries);
        continue;
      }
      w.log(`income run ${runId} failed: ${messageOf(error)}`);
      await repo.markFailed(database.db, runId, messageOf(error)).catch(() => {});
      return;
    }
  }
}

/** A reversal's ranges after the request's first, one transaction each, to its end. */
async function workReversal(database: Database, runId: number): Promise<void> {
  const w = workersOf(database);
  for (let n = 1, tries = 0, waits = 0; !w.stopping; ) {
    try {
      if (w.beforeChunk?.(runId, n, 0) === 'halt') return;
      const chunked = await database.db.transaction((tx) => reversalChunk(tx, runId, w.chunkSize));
      tries = 0;
      if (!chunked) {
        // Nothing done: the reversal is over, or another connection holds its lock (then wait for it).
        const run = await repo.runById(database.db, runId);
        if (!run || run.status !== 'reversing' || run.cursors[0] === -1) return;
        if (waits === 0) w.log(`reversal of income run ${runId} is locked by another connection; trying again until it moves`);
        await whileBusy(w, waits++);
        continue;
      }
      waits = 0;
      n += 1;
      if (chunked.next === 'reversed') return;
    } catch (error) {
      if (isRetryable(error) && ++tries <= RETRIES) {
        await retryPause(tries);
        continue;
      }
      if (error instanceof AppError && error.statusCode === 409) return; // another worker has it
      // The run stays 'reversing' with the error shown; the next schedule tick (or start-up) tries again.
      w.log(`reversal of income run ${runId} stopped: ${messageOf(error)}`);
      await repo.noteError(database.db, runId, messageOf(error)).catch(() => {});
      return;
    }
  }
}

/** A reversing run's ranges, or every slice of a running run that is not done, side by side. */
async function work(database: Database, runId: number): Promise<void> {
  const run = await repo.runById(database.db, runId);
  if (!run) return;
  if (run.status === 'reversing') return workReversal(database, runId);
  await Promise.all(run.cursors.map((cursor, slice) => (cursor === -1 ? undefined : workSlice(database, runId, slice))));
}

/** Works the run's chunks in the background (once per process); resolves when this worker stops. */
export function kick(database: Database, runId: number): Promise<void> {
  const w = workersOf(database);
  const existing = w.running.get(runId);
  if (existing) return existing;
  const promise = work(database, runId).finally(() => w.running.delete(runId));
  w.running.set(runId, promise);
  return promise;
}

/** Resolves when no run is being worked in this process (tests, the schedule, shutdown). */
export async function runsSettled(database: Database): Promise<void> {
  const w = workersOf(database);
  while (w.running.size > 0) await Promise.allSettled([...w.running.values()]);
}

/** Shutdown: no new chunk starts; the chunk under way finishes (its run resumes at the next start). */
export async function stopRuns(database: Database): Promise<void> {
  const w = workersOf(database);
  w.stopping = true;
  for (const wake of [...w.wakers]) wake();
  await runsSettled(database);
}

/** Start-up (and each schedule tick): every run left 'running' or 'reversing' goes on from its cursors. */
export async function resumeRuns(database: Database): Promise<number[]> {
  workersOf(database).stopping = false;
  const ids = await repo.runsWithStatus(database.db, ['running', 'reversing']);
  for (const id of ids) void kick(database, id);
  return ids;
}

/** The chunk size a reversal request works its first range with (the workers' own). */
export const runChunkSize = (database: Database) => workersOf(database).chunkSize;

/** A reversal that left ranges for the background sets a worker going on it once it has committed. */
export function afterReversal<T>(database: Database, runId: number, result: MoneyResult<T> & { background: boolean }): MoneyResult<T> {
  const { background, ...money } = result;
  return background ? { ...money, afterCommit: () => void kick(database, runId) } : money;
}

/**
 * The period of `kind` holding `day` (chained across changes of period type: periods.ts), and the
 * settings in force on its first day.
 */
export async function periodOf(db: Db, kind: RunKind, day: string): Promise<{ period: RunPeriod; inForce: SettingsInForce; timeline: SettingsTimeline }> {
  const timeline = await settingsTimeline(db);
  const period = periodIn(RUN_HANDLERS[kind], day, timeline);
  const version = timeline.versions.findLast((v) => v.from <= period.start);
  const inForce: SettingsInForce = version
    ? { versionId: version.versionId, effectiveFrom: version.from, settings: version.settings }
    : { versionId: null, effectiveFrom: null, settings: DEFAULT_INCOME_SETTINGS };
  return { period, inForce, timeline };
}

export interface Started {
  run: repo.RunRow;
  /** A new run (201); false: the period's existing run (200). */
  created: boolean;
  /** A failed run of the period was set going again. */
  resumed: boolean;
}

/** A period whose runs were all reversed is run again only with a second operator's approval (issue 22). */
export class RerunNeedsApproval extends Error {
  constructor(readonly kind: RunKind, readonly period: RunPeriod, readonly reversedRunId: number) {
    super(`The ${kindLabel(kind).toLowerCase()} period from ${wire(period.start)} was paid by run ${reversedRunId}, since reversed: running it again needs a second operator's approval`);
  }
}

export interface StartInput {
  kind: RunKind;
  day: string;
  startedBy: number | null;
  /** A second operator approved running a reversed period again. */
  rerunApproved?: boolean;
}

/**
 * The run's first transaction, in `tx`: inserts the run (exactly once) and `begin`s it. Null when
 * the period already has a run that is not reversed. The period's runs are locked first, so a
 * reversal that finishes meanwhile cannot let a re-run through unapproved.
 */
export async function beginRun(tx: Db, database: Database, input: StartInput): Promise<number | null> {
  const handler = RUN_HANDLERS[input.kind];
  const today = await istToday(tx);
  const { period, inForce, timeline } = await periodOf(tx, input.kind, input.day);
  if (period.start > today) {
    throw new AppError(400, `The ${kindLabel(input.kind).toLowerCase()} period from ${wire(period.start)} has not started yet (today is ${wire(today)}, India time)`);
  }
  refuseUnpaid(handler, period, timeline);
  await lockKind(tx, input.kind);
  await refuseOverlap(tx, input.kind, kindLabel(input.kind).toLowerCase(), period);
  const prior = await repo.lockPeriodRuns(tx, input.kind, period.start);
  const reversed = prior.find((r) => r.status === 'reversed');
  if (reversed && prior.every((r) => r.status === 'reversed') && !input.rerunApproved) {
    throw new RerunNeedsApproval(input.kind, period, reversed.runId);
  }
  const runId = await repo.insertRun(tx, {
    kind: input.kind, periodStart: period.start, periodEnd: period.end, settings: inForce.settings,
    settingsVersionId: inForce.versionId, startedBy: input.startedBy,
  });
  if (runId === null) return null;
  const scope = { runId, kind: input.kind, period, settings: inForce.settings, settingsVersionId: inForce.versionId };
  const begun = await handler.begin(tx, scope);
  const batchId = begun.batch ? await repo.createBatch(tx, begun.batch, runId) : null;
  const parts = workersOf(database).slices;
  const sliceEnds = handler.split && parts > 1 ? await handler.split(tx, scope, begun.total, parts) : [];
  await repo.setBegun(tx, runId, { total: begun.total, state: begun.state, batchId, sliceEnds });
  return runId;
}

/**
 * Starts the run of `kind` for the period holding `day` (exactly once), or answers the period's
 * run. A period whose first day is after today (India time) is refused; one that has begun may be
 * run on demand even before the schedule would (an operator's decision). A failed run is resumed.
 */
export async function startRun(database: Database, input: StartInput): Promise<Started> {
  const { db } = database;
  const createdId = await db.transaction((tx) => beginRun(tx, database, input));
  if (createdId !== null) {
    void kick(database, createdId);
    return { run: (await repo.runById(db, createdId))!, created: true, resumed: false };
  }
  const { period } = await periodOf(db, input.kind, input.day);
  const existing = await repo.runOfPeriod(db, input.kind, period.start);
  if (!existing) throw new AppError(409, 'The period\u2019s run changed while starting it: try again');
  const resumed = existing.status === 'failed' && (await repo.markResumed(db, existing.runId));
  if (existing.status === 'running' || resumed) void kick(database, existing.runId);
  return { run: (await repo.runById(db, existing.runId))!, created: false, resumed };
}

/** Starts (or finds) the run and waits until this process has worked it to its end (schedule, scripts). */
export async function runToEnd(database: Database, input: StartInput) {
  const started = await startRun(database, input);
  await kick(database, started.run.runId);
  return (await repo.runById(database.db, started.run.runId))!;
}

/** What the run of the period holding `day` would do, computed with the same rules, writing nothing. */
export async function previewRun(database: Database, kind: RunKind, day: string, within?: Db) {
  const inTx = <T>(work: (tx: Db) => Promise<T>) => (within ? work(within) : database.db.transaction(work));
  return inTx(async (tx) => {
    const handler = RUN_HANDLERS[kind];
    const { period, inForce, timeline } = await periodOf(tx, kind, day);
    refuseUnpaid(handler, period, timeline);
    await refuseOverlap(tx, kind, kindLabel(kind).toLowerCase(), period);
    const scope = { kind, period, settings: inForce.settings, settingsVersionId: inForce.versionId };
    const begun = await handler.begin(tx, { runId: 0, ...scope });
    const tally: Tally = await handler.preview(tx, { ...scope, state: begun.state });
    const existing = await repo.runOfPeriod(tx, kind, period.start);
    return { period, tally, total: begun.total, existingRunId: existing?.runId ?? null };
  });
}
