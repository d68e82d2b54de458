import type { RunBody, RunKind, RunStatus } from '../../../../contract/income.ts';
import { isoToWireDate, wireDateToIso } from '../../../../contract/common.ts';
import { audit } from '../../../lib/audit.ts';
import { actorId, type Ctx } from '../../../lib/context.ts';
import { AppError } from '../../../lib/errors.ts';
import type { Db } from '../../../db/client.ts';
import type { MoneyResult } from '../../../lib/idempotency.ts';
import { formatRupees, holdForApproval, type MoneyContext } from '../../approvals/four-eyes.ts';
import { beginRun, kick, kindLabel, previewRun, RerunNeedsApproval, startRun } from './engine.ts';
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
  };
}

export async function preview(ctx: Ctx, input: RunInput) {
  const p = await previewRun(ctx.database, input.kind, input.date);
  return {
    kind: input.kind,
    periodStart: isoToWireDate(p.period.start),
    periodEnd: isoToWireDate(p.period.end),
    totals: repo.rupeeTotals({ ...p.tally, total: p.total, done: p.tally.units }),
    existingRunId: p.existingRunId,
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
export async function fileRerun(tx: Db, ctx: Ctx, money: MoneyContext, input: RunInput, refused: RerunNeedsApproval): Promise<MoneyResult> {
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
export async function replayRerun(tx: Db, ctx: Ctx, money: MoneyContext, payload: unknown): Promise<MoneyResult> {
  const { kind, date } = payload as { kind: RunKind; date: string };
  const day = wireDateToIso(String(date));
  if (!day) throw new AppError(400, `Invalid date ${String(date)}`);
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
