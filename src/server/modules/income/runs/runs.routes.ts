import type { FastifyInstance } from 'fastify';
import { runsApi } from '../../../../contract/income.ts';
import { contextOf } from '../../../lib/context.ts';
import { idempotent } from '../../../lib/idempotency.ts';
import { registerEndpoints } from '../../../lib/routes.ts';
import { moneyContext } from '../../approvals/four-eyes.ts';
import { afterReversal, runChunkSize, stopRuns } from './engine.ts';
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
      const started = await service.start(contextOf(request), request.body);
      return reply.code(started.created ? 201 : 200).send({ success: true, message: started.message, data: started.run });
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
