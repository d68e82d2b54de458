import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../contract/common.ts';
import { payoutsCsvQuery, payoutsQuery, payoutsResponse, transferBody, transferResponse } from '../../../contract/payouts.ts';
import { awaitingApprovalResponse } from '../../../contract/approvals.ts';
import { idempotent } from '../../plugins/idempotency.ts';
import { moneyContext } from '../approvals/four-eyes.ts';
import { CSV_BATCH, sendCsv } from '../../plugins/csv.ts';
import * as repo from './payouts.repository.ts';
import { transferAdmin } from './payouts.service.ts';

const readErrors = { 400: errorResponse, 401: errorResponse, 403: errorResponse };
const tags = ['payouts'];

export async function payoutsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const database = app.database;

  app.get('/wallets/dailyPayout', {
    config: { access: 'payouts_view' },
    schema: { tags, querystring: payoutsQuery, response: { 200: payoutsResponse, ...readErrors } },
  }, async (request) => {
    const { page, limit, ...filters } = request.query;
    return { success: true as const, ...(await repo.listPayouts(database, filters, page, limit)), page, limit };
  });

  app.get('/wallets/dailyPayout.csv', {
    config: { access: 'payouts_view' },
    schema: { tags, querystring: payoutsCsvQuery, response: readErrors },
  }, async (request, reply) =>
    sendCsv<repo.PayoutKeyset>(reply, 'daily-payouts.csv', ['ID', 'User ID', 'User Name', 'Amount', 'Date', 'Status', 'Paid At'],
      async (cursor) => {
        const rows = await repo.payoutsBatch(database, request.query, cursor, CSV_BATCH);
        const last = rows.at(-1);
        return {
          rows: rows.map((r) => [r.id, r.userId, r.userName, r.amount.toFixed(2), r.date, r.status, r.paidAt]),
          cursor: rows.length === CSV_BATCH && last ? { date: last.date, id: last.id } : null,
        };
      }));

  app.post('/transferAdmin', {
    config: { access: 'payouts_pay' },
    schema: {
      tags,
      body: transferBody,
      response: {
        200: transferResponse, 202: awaitingApprovalResponse, ...readErrors, 404: errorResponse, 409: errorResponse, 422: errorResponse,
      },
    },
  }, async (request, reply) => idempotent(database, request, reply, (tx) => transferAdmin(tx, moneyContext(request), request.body)));
}
