import type { FastifyInstance } from 'fastify';
import { approvalsApi } from '../../../contract/approvals.ts';
import { contextOf } from '../../lib/context.ts';
import { idempotent } from '../../lib/idempotency.ts';
import { registerEndpoints } from '../../lib/routes.ts';
import * as service from './approvals.service.ts';

/** The Approvals screen's API: money movements above the threshold wait here for a second operator. */
export async function approvalsRoutes(app: FastifyInstance) {
  registerEndpoints(app, approvalsApi, {
    list: async (request) => {
      const { page, limit } = request.query;
      return { success: true as const, ...(await service.listApprovals(contextOf(request), request.query)), page, limit };
    },
    get: async (request) => ({ success: true as const, data: await service.getApproval(contextOf(request), request.params.id) }),
    approve: async (request, reply) => {
      const ctx = contextOf(request);
      return idempotent(ctx, request, reply, (tx) => service.approveRequest(tx, ctx, request.params.id, request.body?.remarks));
    },
    reject: async (request, reply) => {
      const ctx = contextOf(request);
      return idempotent(ctx, request, reply, (tx) => service.rejectRequest(tx, ctx, request.params.id, request.body.remarks));
    },
  });
}
