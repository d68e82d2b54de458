import type { FastifyInstance } from 'fastify';
import { booksApi, memberStatementApi } from '../../../contract/books.ts';
import { contextOf } from '../../lib/context.ts';
import { CSV_BATCH, sendCsv, type CsvCell } from '../../lib/csv.ts';
import { registerEndpoints } from '../../lib/routes.ts';
import * as money from '../wallet/member-money.service.ts';
import * as service from './books.service.ts';

const ok = true as const;
const amount = (v: number | null) => (v === null ? null : v.toFixed(2));

/** A statement's opening or closing row: its label in the kind column, the balance in the Balance After column. */
function balanceRow(label: string, paise: number, width: number, balanceColumn: number): CsvCell[] {
  const row: CsvCell[] = Array.from({ length: width }, () => null);
  row[3] = label;
  row[balanceColumn] = (paise / 100).toFixed(2);
  return row;
}

export async function booksRoutes(app: FastifyInstance) {
  registerEndpoints(app, booksApi, {
    trialBalance: async (request) => ({ success: ok, data: await service.trialBalance(contextOf(request), request.query.date) }),
    trialBalanceCsv: async (request, reply) => {
      const tb = await service.trialBalance(contextOf(request), request.query.date);
      return sendCsv<never>(reply, `trial-balance-${tb.date}.csv`, ['Code', 'Account', 'Type', 'Debit', 'Credit'], async () => ({
        rows: [
          ...tb.accounts.map((a) => [a.code, a.name, a.type, amount(a.debit), amount(a.credit)]),
          ['', `Total at the end of ${tb.date}`, '', tb.totalDebit.toFixed(2), tb.totalCredit.toFixed(2)],
        ],
        cursor: null,
      }));
    },
    statement: async (request) => {
      const { fromDate, toDate, page, limit } = request.query;
      return { success: ok, data: await service.accountStatement(contextOf(request), request.params.code, fromDate, toDate, page, limit) };
    },
    statementCsv: async (request, reply) => {
      const ctx = contextOf(request);
      const { code } = request.params;
      const { fromDate, toDate } = request.query;
      const { totals } = await service.statementHead(ctx, code, fromDate, toDate);
      return sendCsv<service.StatementCursor>(reply, `${code}-${fromDate}-to-${toDate}.csv`,
        ['Leg', 'Transfer', 'Date & Time (IST)', 'Kind', 'Member', 'Debit', 'Credit', 'Balance After', 'Cause', 'Description'],
        async (cursor) => {
          const { lines, next } = await service.statementBatch(ctx, code, fromDate, toDate, totals.openingPaise, cursor, CSV_BATCH);
          const rows: CsvCell[][] = lines.map((l) => [l.id, l.transferId, l.istTime, l.kindLabel,
            l.member ? `${l.member.name ?? ''} (#${l.member.userId})` : null,
            amount(l.debit), amount(l.credit), l.balanceAfter.toFixed(2), l.cause.text, l.description]);
          if (cursor === null) rows.unshift(balanceRow('Opening balance', totals.openingPaise, 10, 7));
          if (next === null) rows.push(balanceRow('Closing balance', totals.closingPaise, 10, 7));
          return { rows, cursor: next };
        });
    },
    transfer: async (request) => {
      const { page, limit } = request.query;
      return { success: ok, data: await service.transfer(contextOf(request), request.params.id, page, limit) };
    },
  });

  // The member statement (issue 25) lives on the member page, under wallet_view.
  registerEndpoints(app, memberStatementApi, {
    memberStatement: async (request) => {
      const { fromDate, toDate, page, limit } = request.query;
      return { success: ok, data: await money.memberStatement(contextOf(request), request.params.userId, fromDate, toDate, page, limit) };
    },
    memberStatementCsv: async (request, reply) => {
      const ctx = contextOf(request);
      const { userId } = request.params;
      const { fromDate, toDate } = request.query;
      const { totals } = await money.memberStatementHead(ctx, userId, fromDate, toDate);
      return sendCsv<money.StatementCursor>(reply, `member-${userId}-statement-${fromDate}-to-${toDate}.csv`,
        ['Line', 'Transfer', 'Date & Time (IST)', 'Kind', 'Counter-account', 'Credit', 'Debit', 'Balance After', 'Description'],
        async (cursor) => {
          const { lines, next } = await money.memberStatementBatch(ctx, userId, fromDate, toDate, totals.openingPaise, cursor, CSV_BATCH);
          const rows: CsvCell[][] = lines.map((l) => [l.id, l.transferId, l.istTime, l.kindLabel, l.counterAccount, amount(l.credit),
            amount(l.debit), l.balanceAfter.toFixed(2), l.description]);
          if (cursor === null) rows.unshift(balanceRow('Opening balance', totals.openingPaise, 9, 7));
          const closing = totals.openingPaise + totals.creditsPaise - totals.debitsPaise;
          if (next === null) rows.push(balanceRow('Closing balance', closing, 9, 7));
          return { rows, cursor: next };
        });
    },
  });
}
