import type { FastifyInstance } from 'fastify';
import { auditApi } from '../../../contract/audit.ts';
import { contextOf } from '../../lib/context.ts';
import { keysetBatches, sendCsv } from '../../lib/csv.ts';
import { registerEndpoints } from '../../lib/routes.ts';
import * as service from './audit.service.ts';

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

export async function auditRoutes(app: FastifyInstance) {
  registerEndpoints(app, auditApi, {
    list: async (request) => {
      const { page, limit, sort, ...filter } = request.query;
      const { data, total, capped } = await service.listAudit(contextOf(request), filter, sort, page, limit);
      return { success: true as const, data, total, totalCapped: capped, page, limit };
    },
    csv: async (request, reply) => {
      // The export is every match, newest first (keyset by id), whatever the screen's order.
      const { page: _page, limit: _limit, sort: _sort, ...filter } = request.query;
      const ctx = contextOf(request);
      return sendCsv<number>(
        reply,
        'audit-log.csv',
        ['ID', 'When', 'Actor ID', 'Actor', 'Action', 'Entity', 'Entity ID', 'Before', 'After', 'Client address'],
        keysetBatches({
          read: (beforeId, limit) => service.auditBatch(ctx, filter, beforeId, limit),
          cells: (e) => [e.id, e.createdAt, e.actorId, e.actorName, e.action, e.entity, e.entityId, json(e.before), json(e.after), e.ip],
          key: (e) => e.id,
        }),
      );
    },
  });
}
