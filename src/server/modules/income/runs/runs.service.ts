import type { RunBody, RunKind, RunStatus } from '../../../../contract/income.ts';
import { isoToWireDate } from '../../../../contract/common.ts';
import { audit } from '../../../lib/audit.ts';
import { actorId, type Ctx } from '../../../lib/context.ts';
import { AppError } from '../../../lib/errors.ts';
import { kindLabel, previewRun, startRun } from './engine.ts';
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
