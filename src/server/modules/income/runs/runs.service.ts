import type { RunBody, RunKind, runsApi, RunStatus } from '../../../../contract/income-runs.ts';
import type { ReplyOf } from '../../../../contract/endpoint.ts';
import { sql } from 'drizzle-orm';
import { isoToWireDate, paiseToRupees, wireDateToIso } from '../../../../contract/common.ts';
import { audit } from '../../../lib/audit.ts';
import { actorId, type Ctx } from '../../../lib/context.ts';
import { AppError } from '../../../lib/errors.ts';
import { rowsOf, type Db } from '../../../db/client.ts';
import type { MoneyReply, MoneyResult, MoneyContext } from '../../../lib/money/movement.ts';
import { formatRupees, holdForApproval } from '../../../lib/money/four-eyes.ts';
import { beginRun, kick, kindLabel, previewRun, RerunNeedsApproval, startRun } from './engine.ts';
import { payoutOfDay } from './daily-payout.ts';
import * as reversals from './reversal.repository.ts';
import * as repo from './runs.repository.ts';

type RunInput = { kind: RunKind; date: string } & Pick<RunBody, never>;

export function listRuns(ctx: Ctx, filters: { kind?: RunKind; status?: RunStatus }, sort: repo.RunSort, page: number, limit: number) {
  return repo.listRuns(ctx.database.db, filters, sort, page, limit);
}

export async function getRun(ctx: Ctx, runId: number) {
  const { db } = ctx.database;
  const run = await repo.runById(db, runId);
  if (!run) throw new AppError(404, `Run ${runId} not found`);
  return {
    ...repo.toRun(run),
    settingsVersionId: run.settingsVersionId,
    settings: run.settings as Record<string, unknown>,
    state: run.state as Record<string, unknown>,
    shortfalls: await repo.shortfallsOf(db, runId),
    reversal: await reversalOf(db, run),
  };
}

/** The reversal's record on the run (beginReversal, advanceReversal) as labelled fields, names for ids. */
async function reversalOf(db: Db, run: repo.RunRow) {
  const r = (run.state as { reversal?: Record<string, unknown> }).reversal;
  if (!r) return null;
  const makerId = r.makerId === undefined || r.makerId === null ? null : Number(r.makerId);
  return {
    remarks: String(r.remarks ?? ''),
    lines: Number(r.lines ?? 0),
    members: Number(r.members ?? 0),
    shortfall: paiseToRupees(Number(r.shortfallPaise ?? 0)),
    requestedByName: await repo.nameOf(db, makerId),
    approved: Boolean(r.approved),
  };
}

/** A run's lines per member, one page; the total is the run's own count of its rows (no count over the run). */
export async function runLines(ctx: Ctx, runId: number, page: number, limit: number) {
  const { db } = ctx.database;
  const run = await repo.runById(db, runId);
  if (!run) throw new AppError(404, `Run ${runId} not found`);
  const total = run.kind === 'daily_payout' ? run.paid + run.failed : run.kind === 'rank_promotion' ? 0 : run.paid;
  const data = total === 0 ? [] : await repo.runLines(db, run, { offset: (page - 1) * limit, limit });
  return { data, total };
}

/** The CSV's reader: batches of a run's lines by member id (keyset). */
export async function runLinesExport(ctx: Ctx, runId: number) {
  const { db } = ctx.database;
  const run = await repo.runById(db, runId);
  if (!run) throw new AppError(404, `Run ${runId} not found`);
  return { run, next: (after: number, size: number) => repo.runLines(db, run, { after, limit: size }) };
}

export function runsBatch(ctx: Ctx, filters: { kind?: RunKind; status?: RunStatus }, before: number | null, size: number) {
  return repo.runsBatch(ctx.database.db, filters, before, size);
}

/** What reversing the run would do now (the dialog's text), from the reversal's own statement. */
export async function reversalPreview(ctx: Ctx, runId: number) {
  const { db } = ctx.database;
  const run = await repo.runById(db, runId);
  if (!run) throw new AppError(404, `Run ${runId} not found`);
  const p = await reversals.reversalPreview(db, runId);
  return {
    runId, members: p.members, lines: p.lines,
    gross: paiseToRupees(p.grossPaise), deductions: paiseToRupees(p.deductionsPaise), net: paiseToRupees(p.grossPaise - p.deductionsPaise),
    takenBack: paiseToRupees(p.takenBackPaise), shortfall: paiseToRupees(p.shortfallPaise), shortfallMembers: p.shortfallMembers,
    payNowLines: p.payNowLines, payNowMembers: p.payNowMembers, unpaidFailures: p.unpaidFailures,
    bankUnsent: paiseToRupees(p.bankUnsentPaise), bankSent: paiseToRupees(p.bankSentPaise),
  };
}

/** Why a daily payout preview pays nothing: what the active memberships are doing that day. */
async function nothingBecause(db: Db, kind: RunKind, day: string, existingRunId: number | null): Promise<string> {
  if (existingRunId !== null) return `This period already has run ${existingRunId}: a period runs only once`;
  if (kind !== 'daily_payout') return 'No member qualifies for this period';
  const [row] = rowsOf<Record<string, string | number>>(await db.execute(sql`
    select count(*)::int8 as active,
           count(*) filter (where m.starts_on > ${day}::date)::int8 as "notStarted",
           count(*) filter (where ${day}::date > m.starts_on + (m.duration_days - 1))::int8 as ended,
           count(*) filter (where m.earned_paise >= m.cap_paise)::int8 as capped,
           count(*) filter (where u.user_id is null)::int8 as deleted,
           count(*) filter (where exists (${payoutOfDay(sql`m.user_id`, day)}))::int8 as paid
      from memberships m left join users u on u.user_id = m.user_id and u.deleted_at is null
     where m.status = 'active'`));
  const n = (k: string) => Number(row[k]);
  if (n('active') === 0) return 'No active memberships: activate a plan for a member first';
  const parts = [
    [n('notStarted'), 'start later'], [n('ended'), 'ended before this day'], [n('capped'), 'reached their cap'],
    [n('paid'), 'are already paid for this day'], [n('deleted'), 'belong to deleted members'],
  ].filter(([count]) => Number(count) > 0).map(([count, what]) => `${count} ${what}`);
  return parts.length > 0
    ? `Nothing to pay: of ${n('active')} active membership(s), ${parts.join(', ')}`
    : `Nothing to pay: the ${n('active')} active membership(s) earn ₹0 after deductions this day`;
}

export async function preview(ctx: Ctx, input: RunInput) {
  const p = await previewRun(ctx.database, input.kind, input.date);
  return {
    kind: input.kind,
    periodStart: isoToWireDate(p.period.start),
    periodEnd: isoToWireDate(p.period.end),
    totals: repo.rupeeTotals({ ...p.tally, total: p.total, done: p.tally.units }),
    existingRunId: p.existingRunId,
    nothingBecause: p.tally.paid + p.tally.failed === 0
      ? await nothingBecause(ctx.database.db, input.kind, p.period.start, p.existingRunId) : null,
  };
}

/** 201 with a new run (worked in the background), or 200 with the period's run (resumed if it had failed). */
export async function start(ctx: Ctx, input: RunInput) {
  const started = await startRun(ctx.database, { kind: input.kind, day: input.date, startedBy: actorId(ctx) });
  const { run } = started;
  const period = `${isoToWireDate(run.periodStart)}${run.periodEnd !== run.periodStart ? ` to ${isoToWireDate(run.periodEnd)}` : ''}`;
  const what = `${kindLabel(run.kind)} run ${run.runId} for ${period}`;
  if (started.created || started.resumed) {
    await audit(ctx.database.db, ctx, {
      action: started.created ? 'income_run_started' : 'income_run_resumed',
      entity: 'income_run',
      entityId: run.runId,
      after: { kind: run.kind, periodStart: run.periodStart, periodEnd: run.periodEnd, settingsVersionId: run.settingsVersionId },
    });
  }
  const message = started.created
    ? `${what} started`
    : started.resumed
      ? `${what} had failed: it goes on from where it stopped`
      : `This period already has ${what} (${run.status}): it runs only once`;
  return { created: started.created, message, run: repo.toRun(run) };
}

/**
 * POST /income/runs for a period whose run was reversed (issue 22: a day is paid once, net): the
 * re-run is filed for a second operator (202) with what the engine's preview says it would pay;
 * the approval (`replayRerun`) starts it.
 */
export async function fileRerun(tx: Db, ctx: Ctx, money: MoneyContext, input: RunInput, refused: RerunNeedsApproval): Promise<MoneyResult<ReplyOf<typeof runsApi.start>>> {
  const { kind, period, reversedRunId } = refused;
  const pending = await repo.pendingRerun(tx, kind, period.start);
  if (pending !== null) {
    throw new AppError(409, `Running the ${kindLabel(kind).toLowerCase()} period from ${isoToWireDate(period.start)} again already awaits approval (request ${pending})`);
  }
  const p = await previewRun(ctx.database, kind, input.date, tx);
  const net = p.tally.grossPaise - p.tally.deductionsPaise;
  return holdForApproval(tx, money, {
    kind: 'run_rerun', userId: null, amountPaise: net,
    payload: {
      kind, date: isoToWireDate(input.date), periodStart: period.start, effectiveFrom: period.start,
      details: {
        run: `${kindLabel(kind)} for ${isoToWireDate(period.start)}${period.end !== period.start ? ` to ${isoToWireDate(period.end)}` : ''}`,
        reversedRun: reversedRunId, members: p.tally.paid, failures: p.tally.failed,
        gross: formatRupees(p.tally.grossPaise), deductions: formatRupees(p.tally.deductionsPaise), net: formatRupees(net),
      },
    },
    reason: `${refused.message}. The request awaits approval by a second operator with money_approve (the run would pay ${formatRupees(net)} net)`,
  });
}

/** An approved re-run: the run's first transaction in the approval's, its chunks once that has committed. */
export async function replayRerun(
  tx: Db, ctx: Ctx, money: MoneyContext, { kind, date }: { kind: RunKind; date: string },
): Promise<MoneyResult<MoneyReply<{ runId: number; status: RunStatus }>>> {
  const day = wireDateToIso(date);
  if (!day) throw new AppError(400, `Invalid date ${date}`);
  const runId = await beginRun(tx, ctx.database, { kind, day, startedBy: money.makerId, rerunApproved: true });
  if (runId === null) throw new AppError(409, `The ${kindLabel(kind).toLowerCase()} period of ${String(date)} already has a run`);
  const run = (await repo.runById(tx, runId))!;
  return {
    status: 201,
    afterCommit: () => void kick(ctx.database, runId),
    body: { success: true, message: `${kindLabel(kind)} run ${runId} started again for a reversed period`, data: { runId, status: run.status } },
    audit: {
      action: 'income_run_started', entity: 'income_run', entityId: runId,
      after: { kind, periodStart: run.periodStart, periodEnd: run.periodEnd, rerun: true, makerId: money.makerId, approvedBy: money.actorId },
    },
  };
}
