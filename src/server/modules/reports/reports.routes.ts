import type { FastifyInstance, FastifyReply } from 'fastify';
import { reportsApi } from '../../../contract/reports.ts';
import { contextOf, type Ctx } from '../../lib/context.ts';
import { CSV_BATCH, sendCsv } from '../../lib/csv.ts';
import { registerEndpoints } from '../../lib/routes.ts';
import type { IncomeKeyset } from './income-export.repository.ts';
import type { IncomeFilters } from './income.repository.ts';
import type { RevenueKeyset } from './revenue.repository.ts';
import * as service from './reports.service.ts';

const INCOME_CSV_HEADER = ['Batch ID', 'Source', 'Run Date', 'User ID', 'User Name', 'Rank', 'Level', 'Amount', 'Date & Time'];

async function incomeCsv(ctx: Ctx, reply: FastifyReply, filename: string, filters: IncomeFilters) {
  return sendCsv<IncomeKeyset>(reply, filename, INCOME_CSV_HEADER, await service.incomeExport(ctx, filters, CSV_BATCH));
}

export async function reportsRoutes(app: FastifyInstance) {
  registerEndpoints(app, reportsApi, {
    revenue: async (request) => {
      const { page, limit, sort, ...filters } = request.query;
      return { success: true as const, ...(await service.revenuePage(contextOf(request), filters, sort, page, limit)), page, limit };
    },
    revenueCsv: async (request, reply) => {
      const ctx = contextOf(request);
      return sendCsv<RevenueKeyset>(reply, 'revenue.csv', ['ID', 'Date & Time', 'Amount', 'User Name', 'User ID'], async (cursor) => {
        const { rows, next } = await service.revenueBatch(ctx, request.query, cursor, CSV_BATCH);
        return { rows: rows.map((r) => [r.id, r.dateTime, r.amount.toFixed(2), r.userName, r.userId]), cursor: next };
      });
    },
    royalty: async (request) => {
      const { page, limit, sort, ...range } = request.query;
      const report = await service.incomeReport(contextOf(request), { kind: 'royalty', ...range }, sort, page, limit);
      return { success: true as const, ...report, page, limit };
    },
    royaltyCsv: async (request, reply) =>
      incomeCsv(contextOf(request), reply, 'royalty-income.csv', { kind: 'royalty', ...request.query }),
    rewards: async (request) => {
      const { page, limit, sort, transactionType, ...range } = request.query;
      const report = await service.incomeReport(contextOf(request), { kind: 'reward', rewardType: transactionType, ...range }, sort, page, limit);
      return { success: true as const, ...report, page, limit };
    },
    rewardsCsv: async (request, reply) => {
      const { transactionType, ...range } = request.query;
      return incomeCsv(contextOf(request), reply, `rewards-${transactionType}.csv`, { kind: 'reward', rewardType: transactionType, ...range });
    },
  });
}
