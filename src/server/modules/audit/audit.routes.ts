import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { auditPage, auditQuery } from '../../../contract/audit.ts';
import { errorResponse } from '../../../contract/common.ts';
import { CSV_BATCH, sendCsv } from '../../plugins/csv.ts';
import { auditBatch, listAudit, type AuditRow } from './audit.repository.ts';

const iso = (v: Date | string) => new Date(v).toISOString();
const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

function toEntry(r: AuditRow) {
  return {
    id: Number(r.id),
    actorId: r.actor_id === null ? null : Number(r.actor_id),
    actorName: r.actor_name,
    action: r.action,
    entity: r.entity,
    entityId: r.entity_id,
    before: r.before ?? null,
    after: r.after ?? null,
    ip: r.ip,
    createdAt: iso(r.created_at),
  };
}

export async function auditRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse };

  app.get('/audit/logs', {
    config: { access: 'audit_view' },
    schema: { tags: ['audit'], querystring: auditQuery, response: { 200: auditPage, ...errors } },
  }, async (request) => {
    const { page, limit, ...filter } = request.query;
    const { rows, total, capped } = await listAudit(app.database, filter, page, limit);
    return { success: true as const, data: rows.map(toEntry), total, totalCapped: capped, page, limit };
  });

  app.get('/audit/logs.csv', {
    config: { access: 'audit_view' },
    schema: { tags: ['audit'], querystring: auditQuery, response: errors },
  }, async (request, reply) => {
    const { page: _page, limit: _limit, ...filter } = request.query;
    return sendCsv<number>(
      reply,
      'audit-log.csv',
      ['ID', 'When', 'Actor ID', 'Actor', 'Action', 'Entity', 'Entity ID', 'Before', 'After', 'Client address'],
      async (beforeId) => {
        const rows = await auditBatch(app.database, filter, beforeId, CSV_BATCH);
        return {
          rows: rows.map((r) => [
            Number(r.id), iso(r.created_at), r.actor_id === null ? null : Number(r.actor_id), r.actor_name, r.action,
            r.entity, r.entity_id, json(r.before), json(r.after), r.ip,
          ]),
          cursor: rows.length === CSV_BATCH ? Number(rows[rows.length - 1].id) : null,
        };
      },
    );
  });
}
