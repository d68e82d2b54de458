import type { FastifyInstance } from 'fastify';
import { payoutsApi } from '../../../contract/payouts.ts';
import { contextOf } from '../../lib/context.ts';
import { CSV_BATCH, sendCsv } from '../../lib/csv.ts';
import { idempotent } from '../../lib/idempotency.ts';
import { registerEndpoints } from '../../lib/routes.ts';
import { moneyContext } from '../approvals/four-eyes.ts';
import type { PayoutKeyset } from './payouts.repository.ts';
import * as service from './payouts.service.ts';

export async function payoutsRoutes(app: FastifyInstance) {
  registerEndpoints(app, payoutsApi, {
    list: async (request) => {
      const { page, limit, sort, ...filters } = request.query;
      return { success: true as const, ...(await service.listPayouts(contextOf(request), filters, sort, page, limit)), page, limit };
    },
    csv: async (request, reply) => {
      const ctx = contextOf(request);
      return sendCsv<PayoutKeyset>(reply, 'daily-payouts.csv', ['ID', 'User ID', 'User Name', 'Amount', 'Date', 'Status', 'Paid At'],
        async (cursor) => {
          const rows = await service.payoutsBatch(ctx, request.query, cursor, CSV_BATCH);
          const last = rows.at(-1);
          return {
            rows: rows.map((r) => [r.id, r.userId, r.userName, r.amount.toFixed(2), r.date, r.status, r.paidAt]),
            cursor: rows.length === CSV_BATCH && last ? { date: last.date, id: last.id } : null,
          };
        });
    },
    transfer: async (request, reply) => {
      const ctx = contextOf(request);
      return idempotent(ctx, request, reply, (tx) => service.transferAdmin(tx, moneyContext(ctx), request.body));
    },
  });
}
