import type { FastifyInstance, FastifyReply } from 'fastify';
import { APPROVAL_KINDS, approvalsApi, type Approval } from '../../../contract/approvals.ts';
import { contextOf } from '../../lib/context.ts';
import { keysetBatches, sendCsv } from '../../lib/csv.ts';
import { idempotent } from '../../lib/idempotency.ts';
import { registerEndpoints } from '../../lib/routes.ts';
import * as service from './approvals.service.ts';

const KINDS = new Map<string, string>(APPROVAL_KINDS.map((k) => [k.value, k.label]));

/** Requests as CSV, newest id first, in keyset batches that `read(beforeId, limit)` reads. */
function approvalsCsv(reply: FastifyReply, filename: string, read: (beforeId: number | null, limit: number) => Promise<Approval[]>) {
  return sendCsv<number>(
    reply,
    filename,
    ['Request', 'Kind', 'Member ID', 'Member', 'Amount (INR)', 'Status', 'Maker', 'Requested At', 'Checker', 'Decided At', 'Remarks'],
    keysetBatches({
      read,
      cells: (a) => [
        a.id, KINDS.get(a.kind) ?? a.kind, a.userId, a.userName, a.amount.toFixed(2), a.status, a.makerName, a.createdAt,
        a.checkerName, a.decidedAt, a.remarks,
      ],
      key: (a) => a.id,
    }),
  );
}

/** The Approvals screen's API: money movements above the threshold wait here for a second operator. */
export async function approvalsRoutes(app: FastifyInstance) {
  registerEndpoints(app, approvalsApi, {
    list: async (request) => {
      const { page, limit } = request.query;
      return { success: true as const, ...(await service.listApprovals(contextOf(request), request.query)), page, limit };
    },
    mine: async (request) => {
      const { page, limit } = request.query;
      return { success: true as const, ...(await service.listMyRequests(contextOf(request), request.query)), page, limit };
    },
    pendingCount: async (request) => ({ success: true as const, data: { count: await service.pendingCount(contextOf(request)) } }),
    ids: async (request) => {
      const { ids, total, capped } = await service.approvalIds(contextOf(request), request.query.status);
      return { success: true as const, data: ids, total, capped };
    },
    mineCsv: async (request, reply) => {
      const ctx = contextOf(request);
      const { status } = request.query;
      return approvalsCsv(reply, `my-requests${status ? `-${status}` : ''}.csv`, (beforeId, limit) => service.myRequestsBatch(ctx, status, beforeId, limit));
    },
    csv: async (request, reply) => {
      const ctx = contextOf(request);
      const { status } = request.query;
      return approvalsCsv(reply, `approvals${status ? `-${status}` : ''}.csv`, (beforeId, limit) => service.approvalsBatch(ctx, status, beforeId, limit));
    },
    bulk: async (request, reply) => {
      const ctx = contextOf(request);
      return idempotent(ctx, request, reply, (tx) => service.decideMany(tx, ctx, request.body));
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
