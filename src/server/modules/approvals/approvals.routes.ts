import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  approvalDecisionResponse, approvalIdParams, approvalResponse, approvalsQuery, approvalsResponse, approveBody, rejectBody,
} from '../../../contract/approvals.ts';
import { errorResponse } from '../../../contract/common.ts';
import { AppError } from '../../plugins/errors.ts';
import { idempotent } from '../../plugins/idempotency.ts';
import { approvalById, listApprovals } from './approvals.repository.ts';
import { approveRequest, rejectRequest } from './approvals.service.ts';

const readErrors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const writeErrors = { ...readErrors, 409: errorResponse, 422: errorResponse };
const tags = ['approvals'];

/** The Approvals screen's API: money movements above the threshold wait here for a second operator. */
export async function approvalsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const database = app.database;

  app.get('/approvals', {
    config: { access: 'money_approve' },
    schema: { tags, querystring: approvalsQuery, response: { 200: approvalsResponse, ...readErrors } },
  }, async (request) => {
    const { status, page, limit } = request.query;
    return { success: true as const, ...(await listApprovals(database, status, page, limit)), page, limit };
  });

  app.get('/approvals/:id', {
    config: { access: 'money_approve' },
    schema: { tags, params: approvalIdParams, response: { 200: approvalResponse, ...readErrors } },
  }, async (request) => {
    const data = await approvalById(database.db, request.params.id);
    if (!data) throw new AppError(404, `Approval request ${request.params.id} not found`);
    return { success: true as const, data };
  });

  app.post('/approvals/:id/approve', {
    config: { access: 'money_approve' },
    schema: { tags, params: approvalIdParams, body: approveBody, response: { 200: approvalDecisionResponse, ...writeErrors } },
  }, async (request, reply) =>
    idempotent(database, request, reply, (tx) => approveRequest(tx, request, request.params.id, request.body?.remarks)));

  app.post('/approvals/:id/reject', {
    config: { access: 'money_approve' },
    schema: { tags, params: approvalIdParams, body: rejectBody, response: { 200: approvalDecisionResponse, ...writeErrors } },
  }, async (request, reply) =>
    idempotent(database, request, reply, (tx) => rejectRequest(tx, request, request.params.id, request.body.remarks)));
}
