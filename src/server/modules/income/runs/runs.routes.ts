import type { FastifyInstance } from 'fastify';
import { runsApi } from '../../../../contract/income.ts';
import { contextOf } from '../../../lib/context.ts';
import { idempotent } from '../../../lib/idempotency.ts';
import { registerEndpoints } from '../../../lib/routes.ts';
import { moneyContext } from '../../approvals/four-eyes.ts';
import { afterReversal, RerunNeedsApproval, runChunkSize, stopRuns } from './engine.ts';
import { memberRecovery } from './recovery.ts';
import { reverseRun } from './reversal.ts';
import * as service from './runs.service.ts';

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
