import { and, eq, sql } from 'drizzle-orm';
import { isoToWireDate, paiseToRupees, type SortValue } from '../../../../contract/common.ts';
import type { Run, RunDetail, RunKind, RunLine, RUN_SORTS, RunStatus } from '../../../../contract/income-runs.ts';
import { rowsOf, type Db } from '../../../db/client.ts';
import { iso, isoDate, type CountRow } from '../../../db/rows.ts';
import { incomeRuns, type runShortfalls } from '../../../db/schema/income.ts';
import type { memberships, users } from '../../../db/schema/members.ts';
import { moneyRequests, type incomeBatches } from '../../../db/schema/money.ts';
import { orderSql } from '../../../lib/order.ts';
import type { RunScope, Tally } from './kind.ts';

/** An income_runs row as the engine reads it (raw SQL: days as text, timestamps as the driver gives them). */
export type RunRow = Pick<
  typeof incomeRuns.$inferSelect,
  | 'runId' | 'kind' | 'status' | 'done' | 'total' | 'cursors' | 'sliceEnds' | 'paid' | 'failed' | 'grossPaise' | 'deductionsPaise' | 'failedPaise' | 'tdsPaise'
  | 'settingsVersionId' | 'batchId' | 'error' | 'startedBy' | 'reversedBy' | 'shortfallPaise'
> & {
  kind: RunKind;
  status: RunStatus;
  periodStart: string;
  periodEnd: string;
  state: unknown;
  settings: unknown;
  startedByName: string | null;
  reversedByName: string | null;
  startedAt: Date | string;
  finishedAt: Date | string | null;
  reversedAt: Date | string | null;
};

type RunId = Pick<RunRow, 'runId'>;
type Shortfall = typeof runShortfalls.$inferSelect;
/** A member's shortfall on a run, with the member's name. */
type ShortfallRow = Pick<Shortfall, 'userId'> & {
  userName: (typeof users.$inferSelect)['fullName'];
  paise: Shortfall['shortfallPaise'];
  recovered: Shortfall['recoveredPaise'];
};
/** A membership's first day as text. */
type StartsOnRow = { day: (typeof memberships.$inferSelect)['startsOn'] };
/** An operator's name (full name, else username). */
type NameRow = { name: (typeof users.$inferSelect)['fullName'] | null };

const RUN_COLUMNS = sql.raw(`
  r.run_id::int8 as "runId", r.kind, r.period_start::text as "periodStart", r.period_end::text as "periodEnd", r.status,
  r.done::int8 as done, r.total::int8 as total, to_jsonb(r.cursors) as cursors, to_jsonb(r.slice_ends) as "sliceEnds", r.paid::int8 as paid, r.failed::int8 as failed,
  r.gross_paise::int8 as "grossPaise", r.deductions_paise::int8 as "deductionsPaise", r.failed_paise::int8 as "failedPaise",
  r.tds_paise::int8 as "tdsPaise", r.state, r.settings, r.settings_version_id as "settingsVersionId", r.batch_id as "batchId", r.error,
  r.started_by::int8 as "startedBy", s.full_name as "startedByName", r.started_at as "startedAt", r.finished_at as "finishedAt",
  r.reversed_by::int8 as "reversedBy", coalesce(v.full_name, v.username) as "reversedByName", r.reversed_at as "reversedAt", r.shortfall_paise::int8 as "shortfallPaise"`);

const num = (v: unknown) => Number(v);
const json = (v: unknown): Record<string, unknown> => (typeof v === 'string' ? JSON.parse(v) : (v ?? {})) as Record<string, unknown>;
const numbers = (v: unknown): number[] => ((typeof v === 'string' ? JSON.parse(v) : v) as unknown[]).map(Number);

/** Numbers arrive as strings from some drivers for int8: one normalisation for every read. */
function normalise(r: RunRow): RunRow {
  return {
    ...r,
    runId: num(r.runId), done: num(r.done), total: num(r.total), cursors: numbers(r.cursors), sliceEnds: numbers(r.sliceEnds), paid: num(r.paid), failed: num(r.failed),
    grossPaise: num(r.grossPaise), deductionsPaise: num(r.deductionsPaise), failedPaise: num(r.failedPaise), tdsPaise: num(r.tdsPaise),
    shortfallPaise: num(r.shortfallPaise), startedBy: r.startedBy === null ? null : num(r.startedBy),
    reversedBy: r.reversedBy === null ? null : num(r.reversedBy),
    periodStart: isoDate(r.periodStart), periodEnd: isoDate(r.periodEnd), state: json(r.state), settings: json(r.settings),
  };
}

export const rupeeTotals = (t: Tally & { total: number; done: number }) => ({
  total: t.total,
  done: t.done,
  paid: t.paid,
  failed: t.failed,
  gross: paiseToRupees(t.grossPaise),
  deductions: paiseToRupees(t.deductionsPaise),
  tds: paiseToRupees(t.tdsPaise ?? 0),
  adminCharge: paiseToRupees(t.deductionsPaise - (t.tdsPaise ?? 0)),
  net: paiseToRupees(t.grossPaise - t.deductionsPaise),
  failedAmount: paiseToRupees(t.failedPaise),
});

export function toRun(r: RunRow): Run {
  return {
    runId: r.runId,
    kind: r.kind,
    periodStart: isoToWireDate(r.periodStart),
    periodEnd: isoToWireDate(r.periodEnd),
    status: r.status,
    totals: rupeeTotals({ ...r, units: r.done }),
    startedBy: r.startedBy,
    startedByName: r.startedBy === null ? null : r.startedByName,
    startedAt: iso(r.startedAt),
    finishedAt: r.finishedAt === null ? null : iso(r.finishedAt),
    reversedBy: r.reversedBy,
    reversedByName: r.reversedBy === null ? null : (r.reversedByName ?? null),
    reversedAt: r.reversedAt === null ? null : iso(r.reversedAt),
    shortfall: paiseToRupees(r.shortfallPaise),
    error: r.error,
    batchId: r.batchId,
  };
}

/** What a run's chunks (and its reversal's ranges) are handed: the run as it started. */
export function scopeOf(run: RunRow): RunScope {
  return {
    runId: run.runId,
    kind: run.kind,
    period: { start: run.periodStart, end: run.periodEnd },
    settings: run.settings as RunScope['settings'],
    settingsVersionId: run.settingsVersionId,
    state: run.state as Record<string, unknown>,
    batchId: run.batchId,
  };
}

/** One run; `lock` takes its row lock until the transaction ends (the chunk loop, a reversal). */
export async function runById(db: Db, runId: number, lock = false): Promise<RunRow | null> {
  const [row] = rowsOf<RunRow>(await db.execute(sql`
    select ${RUN_COLUMNS} from income_runs r left join users s on s.user_id = r.started_by left join users v on v.user_id = r.reversed_by
     where r.run_id = ${runId} ${lock ? sql.raw('for update of r') : sql``}`));
  return row ? normalise(row) : null;
}

/** The period's run that holds it (any status but reversed), if there is one. */
export async function runOfPeriod(db: Db, kind: RunKind, periodStart: string): Promise<RunRow | null> {
  const [row] = rowsOf<RunRow>(await db.execute(sql`
    select ${RUN_COLUMNS} from income_runs r left join users s on s.user_id = r.started_by left join users v on v.user_id = r.reversed_by
     where r.kind = ${kind} and r.period_start = ${periodStart}::date and r.status <> 'reversed'`));
  return row ? normalise(row) : null;
}

/** Every run of the period (reversed ones too), locked until the caller's transaction ends. */
export async function lockPeriodRuns(db: Db, kind: RunKind, periodStart: string): Promise<{ runId: number; status: string }[]> {
  return db.select({ runId: incomeRuns.runId, status: incomeRuns.status }).from(incomeRuns)
    .where(and(eq(incomeRuns.kind, kind), eq(incomeRuns.periodStart, periodStart)))
    .orderBy(incomeRuns.runId).for('update');
}

/** A pending request to run a reversed period again, when there is one. */
export async function pendingRerun(db: Db, kind: RunKind, periodStart: string): Promise<number | null> {
  const [row] = await db.select({ id: moneyRequests.id }).from(moneyRequests)
    .where(and(
      eq(moneyRequests.status, 'pending'), eq(moneyRequests.kind, 'run_rerun'),
      sql`${moneyRequests.payload}->>'kind' = ${kind}`, sql`${moneyRequests.payload}->>'periodStart' = ${periodStart}`,
    )).limit(1);
  return row ? row.id : null;
}

export interface NewRun {
  kind: RunKind;
  periodStart: string;
  periodEnd: string;
  settings: unknown;
  settingsVersionId: number | null;
  startedBy: number | null;
}

/**
 * Inserts the period's run, or nothing when the period already has one (the partial unique index
 * income_runs_once_uq: a concurrent start waits for the first to commit, then finds its row).
 */
export async function insertRun(db: Db, run: NewRun): Promise<number | null> {
  const [row] = rowsOf<RunId>(await db.execute(sql`
    insert into income_runs (kind, period_start, period_end, status, settings, settings_version_id, started_by)
    values (${run.kind}, ${run.periodStart}::date, ${run.periodEnd}::date, 'running', ${JSON.stringify(run.settings)}::jsonb,
            ${run.settingsVersionId}, ${run.startedBy})
    on conflict (kind, period_start) where status <> 'reversed' do nothing
    returning run_id::int8 as "runId"`));
  return row ? Number(row.runId) : null;
}

export async function createBatch(db: Db, batch: { kind: string; rewardType: string | null; runDate: string }, runId: number): Promise<number> {
  const [row] = rowsOf<Pick<typeof incomeBatches.$inferSelect, 'batchId'>>(await db.execute(sql`
    insert into income_batches (kind, reward_type, run_date, run_id)
    values (${batch.kind}, ${batch.rewardType}, ${batch.runDate}::date, ${runId}) returning batch_id as "batchId"`));
  return Number(row.batchId);
}

/** What `begin` fixed, and the run's slices: their cursors start where the slice before ends. */
export async function setBegun(db: Db, runId: number, begun: { total: number; state: unknown; batchId: number | null; sliceEnds: number[] }) {
  const cursors = [0, ...begun.sliceEnds];
  await db.execute(sql`
    update income_runs set total = ${begun.total}, state = ${JSON.stringify(begun.state)}::jsonb, batch_id = ${begun.batchId},
           cursors = ${`{${cursors.join(',')}}`}::int8[], slice_ends = ${`{${begun.sliceEnds.join(',')}}`}::int8[]
     where run_id = ${runId}`);
}

/**
 * Adds a chunk's tally and moves its slice's cursor (-1 when the slice is done), guarded by the
 * cursor the chunk started from: a second worker that read the same cursor updates nothing (and
 * its transaction rolls back). The run completes with its last slice: the condition reads the row
 * as it is when this update takes it, so of two slices finishing at once the later one completes it.
 */
export async function advance(db: Db, runId: number, slice: number, from: number, chunk: Tally & { cursor: number; done: boolean }): Promise<boolean> {
  const at = slice + 1; // SQL arrays count from 1
  const last = sql`(${chunk.done} and not exists (
    select 1 from unnest(income_runs.cursors) with ordinality c(v, n) where n <> ${at} and v <> -1))`;
  const rows = rowsOf(await db.execute(sql`
    update income_runs
       set cursors[${at}] = ${chunk.done ? -1 : chunk.cursor}::int8, done = done + ${chunk.units}, paid = paid + ${chunk.paid},
           failed = failed + ${chunk.failed}, gross_paise = gross_paise + ${chunk.grossPaise},
           deductions_paise = deductions_paise + ${chunk.deductionsPaise}, failed_paise = failed_paise + ${chunk.failedPaise},
           tds_paise = tds_paise + ${chunk.tdsPaise ?? 0},
           status = case when ${last} then 'completed' else status end,
           finished_at = case when ${last} then now() else finished_at end
     where run_id = ${runId} and cursors[${at}] = ${from}::int8 and status = 'running'
     returning run_id`));
  return rows.length === 1;
}

export async function markFailed(db: Db, runId: number, error: string) {
  await db.execute(sql`update income_runs set status = 'failed', error = ${error.slice(0, 2000)} where run_id = ${runId} and status = 'running'`);
}

/** A reversal that stopped on an error keeps its status ('reversing') and shows the error until it goes on. */
export async function noteError(db: Db, runId: number, error: string) {
  await db.execute(sql`update income_runs set error = ${error.slice(0, 2000)} where run_id = ${runId} and status = 'reversing'`);
}

/** A failed run goes on from its cursor (POST start again, or the schedule). */
export async function markResumed(db: Db, runId: number): Promise<boolean> {
  const rows = rowsOf(await db.execute(sql`
    update income_runs set status = 'running', error = null where run_id = ${runId} and status = 'failed' returning run_id`));
  return rows.length === 1;
}

/** The ids of the runs in any of these statuses, oldest period first. */
export async function runsWithStatus(db: Db, statuses: RunStatus[]): Promise<number[]> {
  const rows = rowsOf<RunId>(await db.execute(sql`
    select run_id::int8 as "runId" from income_runs where status = any(${`{${statuses.join(',')}}`}::text[]) order by period_start, run_id`));
  return rows.map((r) => Number(r.runId));
}

/** Runs of a kind from a day on (the schedule's look-back), reversed ones included. */
export async function runsSince(db: Db, kind: RunKind, from: string): Promise<{ runId: number; periodStart: string; status: RunStatus }[]> {
  const rows = rowsOf<Pick<RunRow, 'runId' | 'periodStart' | 'status'>>(await db.execute(sql`
    select run_id::int8 as "runId", period_start::text as "periodStart", status from income_runs
     where kind = ${kind} and period_start >= ${from}::date order by period_start, run_id`));
  return rows.map((r) => ({ ...r, runId: Number(r.runId), periodStart: isoDate(r.periodStart) }));
}

export type RunSort = SortValue<(typeof RUN_SORTS)[number]>;
const SORT_COLUMNS: Record<(typeof RUN_SORTS)[number], string> = { startedAt: 'r.started_at', periodStart: 'r.period_start' };

export async function listRuns(db: Db, f: { kind?: RunKind; status?: RunStatus }, sort: RunSort, page: number, limit: number) {
  const where = sql.join(
    [sql`true`, f.kind ? sql`r.kind = ${f.kind}` : undefined, f.status ? sql`r.status = ${f.status}` : undefined].filter((s) => s !== undefined),
    sql` and `,
  );
  const order = sql.raw(orderSql(sort, SORT_COLUMNS, 'r.run_id'));
  const rows = rowsOf<RunRow>(await db.execute(sql`
    select ${RUN_COLUMNS} from income_runs r left join users s on s.user_id = r.started_by left join users v on v.user_id = r.reversed_by
     where ${where} order by ${order} limit ${limit} offset ${(page - 1) * limit}`));
  const [count] = rowsOf<CountRow>(await db.execute(sql`select count(*)::int8 as n from income_runs r where ${where}`));
  return { data: rows.map(normalise).map(toRun), total: Number(count.n) };
}

export async function shortfallsOf(db: Db, runId: number): Promise<RunDetail['shortfalls']> {
  const rows = rowsOf<ShortfallRow>(await db.execute(sql`
    select f.user_id::int8 as "userId", coalesce(u.username, u.full_name) as "userName", f.shortfall_paise::int8 as paise,
           f.recovered_paise::int8 as recovered
      from run_shortfalls f join users u on u.user_id = f.user_id
     where f.run_id = ${runId} order by f.shortfall_paise desc, f.user_id limit 1000`));
  return rows.map((r) => ({
    userId: Number(r.userId), userName: r.userName, amount: paiseToRupees(Number(r.paise)), recovered: paiseToRupees(Number(r.recovered)),
  }));
}

/**
 * The first day an active membership could earn (the schedule's catch-up starts there): the
 * oldest active membership's first day, one row of memberships_active_idx (ids follow activation).
 */
export async function firstEarningDay(db: Db): Promise<string | null> {
  const [row] = rowsOf<StartsOnRow>(await db.execute(sql`
    select starts_on::text as day from memberships where status = 'active' order by id limit 1`));
  return row?.day ? isoDate(row.day) : null;
}


/** The runs for the CSV export, newest first, in keyset batches on run_id (runs are a few a day). */
export async function runsBatch(db: Db, f: { kind?: RunKind; status?: RunStatus }, before: number | null, size: number): Promise<Run[]> {
  const where = sql.join(
    [sql`true`, f.kind ? sql`r.kind = ${f.kind}` : undefined, f.status ? sql`r.status = ${f.status}` : undefined,
      before === null ? undefined : sql`r.run_id < ${before}`].filter((s) => s !== undefined),
    sql` and `,
  );
  const rows = rowsOf<RunRow>(await db.execute(sql`
    select ${RUN_COLUMNS} from income_runs r left join users s on s.user_id = r.started_by left join users v on v.user_id = r.reversed_by
     where ${where} order by r.run_id desc limit ${size}`));
  return rows.map(normalise).map(toRun);
}

/** Names of operators by id (the reversal's requester), for the run's labelled fields. */
export async function nameOf(db: Db, userId: number | null): Promise<string | null> {
  if (userId === null) return null;
  const [row] = rowsOf<NameRow>(await db.execute(sql`
    select coalesce(full_name, username) as name from users where user_id = ${userId}`));
  return row?.name ?? null;
}

type LineRow = {
  userId: number; userName: string; status: RunLine['status']; grossPaise: number; tdsPaise: number; adminPaise: number;
  netPaise: number; reason: string | null; paidNowByName: string | null; reversedStatus: string | null;
};

const toLine = (r: LineRow): RunLine => ({
  userId: Number(r.userId), userName: r.userName, status: r.status,
  gross: paiseToRupees(Number(r.grossPaise)), tds: paiseToRupees(Number(r.tdsPaise)), adminCharge: paiseToRupees(Number(r.adminPaise)),
  net: paiseToRupees(Number(r.netPaise)), reason: r.reason, paidNowByName: r.paidNowByName, reversedStatus: r.reversedStatus,
});

/**
 * A run's lines per member after `after` (member id), at most `limit`, by member id. A daily payout
 * run reads its payout rows (daily_payouts_run_idx: run, member); another kind groups its ledger
 * rows per member (ledger_run_idx: run, member, id), reversal rows apart. Either is an index walk
 * that stops at the page's end; `offset` pages through the same order.
 */
export async function runLines(db: Db, run: { runId: number; kind: RunKind }, page: { after?: number; offset?: number; limit: number }): Promise<RunLine[]> {
  const after = page.after ?? 0;
  const offset = page.offset ?? 0;
  if (run.kind === 'daily_payout') {
    const rows = rowsOf<LineRow>(await db.execute(sql`
      select p.user_id::int8 as "userId", coalesce(u.username, u.full_name) as "userName", p.status,
             coalesce(p.gross_paise, p.amount_paise)::int8 as "grossPaise", p.tds_paise::int8 as "tdsPaise",
             p.admin_charge_paise::int8 as "adminPaise", p.amount_paise::int8 as "netPaise", p.reason,
             (select coalesce(a.full_name, a.username) from ledger_entries l join users a on a.user_id = l.actor_id
               where l.id = p.ledger_entry_id) as "paidNowByName",
             p.reversed_status as "reversedStatus"
        from daily_payouts p join users u on u.user_id = p.user_id
       where p.run_id = ${run.runId} and p.user_id > ${after}
       order by p.user_id, p.id limit ${page.limit} offset ${offset}`));
    return rows.map(toLine);
  }
  const rows = rowsOf<LineRow>(await db.execute(sql`
    select g.user_id::int8 as "userId", coalesce(u.username, u.full_name) as "userName",
           case when g.reversed <> 0 then 'Reversed' else 'Paid' end as status,
           g.gross::int8 as "grossPaise", 0::int8 as "tdsPaise", 0::int8 as "adminPaise", g.gross::int8 as "netPaise",
           null::text as reason, null::text as "paidNowByName", null::text as "reversedStatus"
      from (select l.user_id, coalesce(sum(l.amount_paise) filter (where l.reversal_of is null), 0) as gross,
                   coalesce(sum(l.amount_paise) filter (where l.reversal_of is not null), 0) as reversed
              from ledger_entries l where l.run_id = ${run.runId}::int8 and l.user_id > ${after}
             group by l.user_id order by l.user_id limit ${page.limit} offset ${offset}) g
      join users u on u.user_id = g.user_id
     order by g.user_id`));
  return rows.map(toLine);
}
