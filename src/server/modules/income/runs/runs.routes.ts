import type { FastifyInstance } from 'fastify';
import { runsApi } from '../../../../contract/income-runs.ts';
import { contextOf } from '../../../lib/context.ts';
import { idempotent } from '../../../lib/idempotency.ts';
import { registerEndpoints } from '../../../lib/routes.ts';
import { moneyContext } from '../../../lib/money/movement.ts';
import { keysetBatches, sendCsv } from '../../../lib/csv.ts';
import { afterReversal, kindLabel, RerunNeedsApproval, runChunkSize, stopRuns } from './engine.ts';
import { memberRecovery } from './recovery.ts';
import { reverseRun } from './reversal.ts';
import * as service from './runs.service.ts';

const RUNS_CSV_HEADER = ['Run ID', 'Kind', 'Period Start', 'Period End', 'Status', 'Paid', 'Failed', 'Gross', 'TDS', 'Admin Charge', 'Net',
  'Started By', 'Started At', 'Finished At', 'Reversed By', 'Reversed At'];
const LINES_CSV_HEADER = ['User ID', 'User Name', 'Status', 'Gross', 'TDS', 'Admin Charge', 'Net', 'Reason', 'Paid Now By', 'Before Reversal'];

/** A time for a CSV cell: India time with its offset (issue 24: exports carry the offset). */
function istCsv(value: string | null): string | null {
  if (value === null) return null;
  const t = new Date(new Date(value).getTime() + 330 * 60_000).toISOString();
  return `${t.slice(0, 19)}+05:30`;
}

export async function runsRoutes(app: FastifyInstance) {
  // Runs started by requests (and long reversals) are worked in the background: closing the server
  // lets the chunk under way finish (the run resumes from its cursors at the next start).
  app.addHook('onClose', async (instance) => stopRuns(instance.database));

  registerEndpoints(app, runsApi, {
    list: async (request) => {
      const { kind, status, sort, page, limit } = request.query;
      return { success: true as const, ...(await service.listRuns(contextOf(request), { kind, status }, sort, page, limit)), page, limit };
    },
    get: async (request) => ({ success: true as const, data: await service.getRun(contextOf(request), request.params.id) }),
    csv: async (request, reply) => {
      const ctx = contextOf(request);
      return sendCsv<number>(reply, 'income-runs.csv', RUNS_CSV_HEADER, keysetBatches({
        read: (before, limit) => service.runsBatch(ctx, request.query, before, limit),
        cells: (r) => [r.runId, kindLabel(r.kind), r.periodStart, r.periodEnd, r.status, r.totals.paid, r.totals.failed,
          r.totals.gross.toFixed(2), r.totals.tds.toFixed(2), r.totals.adminCharge.toFixed(2), r.totals.net.toFixed(2),
          r.startedByName ?? (r.startedBy === null ? 'Schedule' : null), istCsv(r.startedAt), istCsv(r.finishedAt),
          r.reversedByName, istCsv(r.reversedAt)],
        key: (r) => r.runId,
      }));
    },
    lines: async (request) => {
      const { page, limit } = request.query;
      return { success: true as const, ...(await service.runLines(contextOf(request), request.params.id, page, limit)), page, limit };
    },
    linesCsv: async (request, reply) => {
      const { run, next } = await service.runLinesExport(contextOf(request), request.params.id);
      return sendCsv<number>(reply, `run-${run.runId}-lines.csv`, LINES_CSV_HEADER, keysetBatches({
        read: (after, limit) => next(after ?? 0, limit),
        cells: (l) => [l.userId, l.userName, l.status, l.gross.toFixed(2), l.tds.toFixed(2), l.adminCharge.toFixed(2),
          l.net.toFixed(2), l.reason, l.paidNowByName, l.reversedStatus],
        key: (l) => l.userId,
      }));
    },
    reversalPreview: async (request) => ({ success: true as const, data: await service.reversalPreview(contextOf(request), request.params.id) }),
    preview: async (request) => ({ success: true as const, data: await service.preview(contextOf(request), request.body) }),
    start: async (request, reply) => {
      const ctx = contextOf(request);
      try {
        const started = await service.start(ctx, request.body);
        return reply.code(started.created ? 201 : 200).send({ success: true, message: started.message, data: started.run });
      } catch (error) {
        // A reversed period is run again only under four eyes (issue 22): filed, 202.
        if (!(error instanceof RerunNeedsApproval)) throw error;
        return idempotent(ctx, request, reply, (tx) => service.fileRerun(tx, ctx, moneyContext(ctx), request.body, error));
      }
    },
    recovery: async (request) => ({ success: true as const, data: await memberRecovery(contextOf(request).database.db, request.params.userId) }),
    reverse: async (request, reply) => {
      const ctx = contextOf(request);
      const payload = { runId: request.params.id, remarks: request.body.remarks };
      return idempotent(ctx, request, reply, async (tx) =>
        afterReversal(ctx.database, payload.runId, await reverseRun(tx, moneyContext(ctx), payload, runChunkSize(ctx.database))));
    },
  });
}
