import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../contract/common.ts';
import {
  incomeResponse, reportCsvQuery, revenueQuery, revenueResponse, rewardsCsvQuery, rewardsQuery,
} from '../../../contract/reports.ts';
import { CSV_BATCH, sendCsv } from '../../plugins/csv.ts';
import { batchesInRange, incomeCsvBatch, incomeReport, type IncomeFilters, type IncomeKeyset } from './income.repository.ts';
import { revenueBatch, revenuePage, type RevenueKeyset } from './revenue.repository.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse };
const tags = ['reports'];
const INCOME_CSV_HEADER = ['Batch ID', 'Source', 'Run Date', 'User ID', 'User Name', 'Rank', 'Level', 'Amount', 'Date & Time'];

export async function reportsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const database = app.database;

  app.get('/wallets/adminRevenue', {
    config: { access: 'reports_view' },
    schema: { tags, querystring: revenueQuery, response: { 200: revenueResponse, ...errors } },
  }, async (request) => {
    const { page, limit, ...filters } = request.query;
    return { success: true as const, ...(await revenuePage(database, filters, page, limit)), page, limit };
  });

  app.get('/wallets/adminRevenue.csv', {
    config: { access: 'reports_view' },
    schema: { tags, querystring: reportCsvQuery, response: errors },
  }, async (request, reply) =>
    sendCsv<RevenueKeyset>(reply, 'revenue.csv', ['ID', 'Date & Time', 'Amount', 'User Name', 'User ID'], async (cursor) => {
      const rows = await revenueBatch(database, request.query, cursor, CSV_BATCH);
      const last = rows.at(-1);
      return {
        rows: rows.map((r) => [r.id, r.dateTime, r.amount.toFixed(2), r.userName, r.userId]),
        cursor: rows.length === CSV_BATCH && last ? { createdAt: last.dateTime, id: last.id } : null,
      };
    }));

  app.get('/royalties/royaltyStats', {
    config: { access: 'reports_view' },
    schema: { tags, querystring: revenueQuery, response: { 200: incomeResponse, ...errors } },
  }, async (request) => {
    const { page, limit, ...range } = request.query;
    return { success: true as const, ...(await incomeReport(database, { kind: 'royalty', ...range }, page, limit)), page, limit };
  });

  app.get('/royalties/royaltyStats.csv', {
    config: { access: 'reports_view' },
    schema: { tags, querystring: reportCsvQuery, response: errors },
  }, async (request, reply) => incomeCsv(reply, 'royalty-income.csv', { kind: 'royalty', ...request.query }));

  app.get('/rewards/rewardsDaily', {
    config: { access: 'reports_view' },
    schema: { tags, querystring: rewardsQuery, response: { 200: incomeResponse, ...errors } },
  }, async (request) => {
    const { page, limit, transactionType, ...range } = request.query;
    const report = await incomeReport(database, { kind: 'reward', rewardType: transactionType, ...range }, page, limit);
    return { success: true as const, ...report, page, limit };
  });

  app.get('/rewards/rewardsDaily.csv', {
    config: { access: 'reports_view' },
    schema: { tags, querystring: rewardsCsvQuery, response: errors },
  }, async (request, reply) => {
    const { transactionType, ...range } = request.query;
    return incomeCsv(reply, `rewards-${transactionType}.csv`, { kind: 'reward', rewardType: transactionType, ...range });
  });

  async function incomeCsv(reply: Parameters<typeof sendCsv>[0], filename: string, filters: IncomeFilters) {
    const batches = await batchesInRange(database, filters);
    return sendCsv<IncomeKeyset>(reply, filename, INCOME_CSV_HEADER,
      (cursor) => incomeCsvBatch(database, filters, batches, cursor, CSV_BATCH));
  }
}
