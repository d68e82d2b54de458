import type { FastifyInstance } from 'fastify';
import { BULK_IDS_CAP, payoutsApi } from '../../../contract/payouts.ts';
import { AppError } from '../../lib/errors.ts';
import { contextOf } from '../../lib/context.ts';
import { CSV_BATCH, sendCsv } from '../../lib/csv.ts';
import { idempotent } from '../../lib/idempotency.ts';
import { registerEndpoints } from '../../lib/routes.ts';
import { moneyContext } from '../../lib/money/movement.ts';
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
      return sendCsv<PayoutKeyset>(reply, 'daily-payouts.csv', ['ID', 'User ID', 'User Name', 'Gross', 'TDS', 'Admin Charge', 'Net', 'Date', 'Status', 'Paid At', 'Reason', 'Reversed By', 'Reversal Reason'],
        async (cursor) => {
          const rows = await service.payoutsBatch(ctx, request.query, cursor, CSV_BATCH);
          const last = rows.at(-1);
          return {
            rows: rows.map((r) => [r.id, r.userId, r.userName, r.gross === null || r.gross === undefined ? null : r.gross.toFixed(2),
              (r.tds ?? 0).toFixed(2), (r.adminCharge ?? 0).toFixed(2), r.amount.toFixed(2), r.date, r.status, r.paidAt, r.reason ?? null,
              r.reversedByName ?? null, r.reversalReason ?? null]),
            cursor: rows.length === CSV_BATCH && last ? { date: last.date, id: last.id } : null,
          };
        });
    },
    failedIds: async (request) => {
      const ids = await service.failedPayoutIds(contextOf(request), request.query, BULK_IDS_CAP);
      if (ids.length > BULK_IDS_CAP) {
        throw new AppError(400, `More than ${BULK_IDS_CAP.toLocaleString('en-IN')} failed payouts match: narrow the filters (a shorter date range) and try again`);
      }
      return { success: true as const, data: ids };
    },
    payBulk: async (request, reply) => {
      const ctx = contextOf(request);
      return idempotent(ctx, request, reply, (tx) => service.payBulk(tx, moneyContext(ctx), request.body));
    },
    transfer: async (request, reply) => {
      const ctx = contextOf(request);
      return idempotent(ctx, request, reply, (tx) => service.transferAdmin(tx, moneyContext(ctx), request.body));
    },
  });
}
