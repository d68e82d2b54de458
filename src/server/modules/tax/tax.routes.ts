import type { FastifyInstance } from 'fastify';
import { taxApi } from '../../../contract/tax.ts';
import { contextOf } from '../../lib/context.ts';
import { CSV_BATCH, sendCsv } from '../../lib/csv.ts';
import { registerEndpoints } from '../../lib/routes.ts';
import { memberPan, requestPanChange } from './pan.service.ts';
import * as service from './tax.service.ts';

/** Tax on what is paid (issue 25, docs/tax.md): the PAN, the TDS report and the monthly statement. */
export async function taxRoutes(app: FastifyInstance) {
  registerEndpoints(app, taxApi, {
    pan: async (request) => ({ success: true as const, data: await memberPan(contextOf(request), request.params.userId) }),
    setPan: async (request, reply) => {
      const answer = await requestPanChange(contextOf(request), request.params.userId, request.body.pan);
      return reply.code(answer.status).send(answer.body);
    },
    tds: async (request) => ({ success: true as const, ...(await service.tdsReport(contextOf(request), request.query)) }),
    tdsCsv: async (request, reply) => {
      const ctx = contextOf(request);
      const q = request.query;
      return sendCsv<number>(reply, service.tdsCsvName(q), service.TDS_CSV_HEADER, (cursor) => service.tdsCsvBatch(ctx, q, cursor ?? 0, CSV_BATCH));
    },
    monthly: async (request) => ({ success: true as const, data: await service.monthlyStatement(contextOf(request), request.query.month) }),
    monthlyCsv: async (request, reply) => {
      const s = await service.monthlyStatement(contextOf(request), request.query.month);
      const rows = [
        ...s.rows.map((r) => [s.label, r.type === 'income' ? 'Income' : 'Expense', r.code, r.name, r.amount.toFixed(2), r.legs]),
        [s.label, 'Total', '', 'Income', s.income.toFixed(2), null],
        [s.label, 'Total', '', 'Expenses', s.expenses.toFixed(2), null],
        [s.label, 'Total', '', 'Net (income less expenses)', s.net.toFixed(2), null],
      ];
      return sendCsv<never>(reply, `monthly-statement-${s.month}.csv`, ['Month', 'Type', 'Account', 'Name', 'Amount', 'Postings'], async () => ({ rows, cursor: null }));
    },
  });
}
