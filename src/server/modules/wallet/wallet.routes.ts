import type { FastifyInstance } from 'fastify';
import { walletApi } from '../../../contract/wallet.ts';
import { contextOf } from '../../lib/context.ts';
import { CSV_BATCH, sendCsv } from '../../lib/csv.ts';
import { idempotent } from '../../lib/idempotency.ts';
import { registerEndpoints } from '../../lib/routes.ts';
import { moneyContext } from '../../lib/money/movement.ts';
import type { Keyset } from './wallet.repository.ts';
import * as money from './member-money.service.ts';
import * as service from './wallet.service.ts';

const ok = true as const;

export async function walletRoutes(app: FastifyInstance) {
  registerEndpoints(app, walletApi, {
    history: async (request) => {
      const { transactionType, userId, page, limit, type, fromDate, toDate, minAmount, maxAmount, sort } = request.query;
      const ctx = contextOf(request);
      if (transactionType === 'wallet_recharge') {
        const filters = { userId, type, fromDate, toDate, minAmount, maxAmount, sort };
        return { success: ok, ...(await service.walletTransactions(ctx, { ...filters, page, limit })), page, limit };
      }
      return { success: ok, ...(await service.memberLedger(ctx, { userId: userId!, page, limit })), page, limit };
    },
    historyCsv: async (request, reply) => {
      const ctx = contextOf(request);
      return sendCsv<Keyset>(reply, 'wallet-transactions.csv', ['ID', 'User ID', 'User', 'Full Name', 'Type', 'Amount', 'Date & Time (IST)'],
        async (cursor) => {
          const { rows, next } = await service.walletTransactionsBatch(ctx, request.query, cursor, CSV_BATCH);
          return {
            rows: rows.map((r) => [r.id, r.userId, r.userName, r.fullName, r.transactionType,
              (r.type === 'debit' ? -r.amount : r.amount).toFixed(2), r.dateTime]),
            cursor: next,
          };
        });
    },
    recharge: async (request, reply) => {
      const ctx = contextOf(request);
      return idempotent(ctx, request, reply, (tx) => service.rechargeOrWithdraw(tx, moneyContext(ctx), request.body));
    },
    balance: async (request) => ({ success: ok, data: await service.balance(contextOf(request), request.params.userId) }),
    balances: async (request) => {
      const { page, limit } = request.query;
      return { success: ok, ...(await service.balances(contextOf(request), request.query)), page, limit };
    },
    summary: async (request) => ({ success: ok, data: await service.summary(contextOf(request)) }),
    myDay: async (request) => ({ success: ok, data: await service.myDay(contextOf(request), request.query.userId) }),
    memberSummary: async (request) => ({ success: ok, data: await service.memberSummary(contextOf(request), request.params.userId) }),
    transaction: async (request) => ({ success: ok, data: await service.transaction(contextOf(request), request.params.id) }),
    requestWithdrawal: async (request, reply) => {
      const ctx = contextOf(request);
      return idempotent(ctx, request, reply, (tx) => service.requestWithdrawal(tx, moneyContext(ctx), request.body));
    },
    withdrawals: async (request) => {
      const { page, limit } = request.query;
      return { success: ok, ...(await service.listWithdrawals(contextOf(request), request.query)), page, limit };
    },
    decideWithdrawal: async (request, reply) => {
      const ctx = contextOf(request);
      return idempotent(ctx, request, reply, (tx) => service.decideWithdrawal(tx, moneyContext(ctx), request.params.id, request.body));
    },
    memberMoney: async (request) => ({ success: ok, data: await money.memberMoney(contextOf(request), request.params.userId) }),
    memberLedger: async (request) => {
      const { page, limit, ...filters } = request.query;
      return { success: ok, ...(await money.memberLedgerPage(contextOf(request), request.params.userId, filters, page, limit)), page, limit };
    },
    memberLedgerCsv: async (request, reply) => {
      const ctx = contextOf(request);
      const { userId } = request.params;
      await money.requireWalletMember(ctx, userId);
      // Times in India time with their offset (2026-11-25T19:07:00+05:30), as every export.
      return sendCsv<money.LedgerCursor>(reply, `member-${userId}-ledger.csv`,
        ['Line', 'Date & Time (IST)', 'Kind', 'Credit', 'Debit', 'Balance After', 'Counter-party', 'Description'],
        async (cursor) => {
          const { lines, next } = await money.memberLedgerBatch(ctx, userId, request.query, cursor, CSV_BATCH);
          return {
            rows: lines.map((l) => [l.id, l.istTime, l.kindLabel, l.type === 'credit' ? l.amount.toFixed(2) : null,
              l.type === 'debit' ? l.amount.toFixed(2) : null, l.balanceAfter.toFixed(2), l.counterparty, l.description]),
            cursor: next,
          };
        });
    },
  });
}
