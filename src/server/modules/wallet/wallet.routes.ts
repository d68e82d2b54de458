import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponse, paiseToRupees } from '../../../contract/common.ts';
import {
  balanceResponse, balancesQuery, balancesResponse, idParams, moneyMovedResponse, rechargeBody,
  transactionResponse, userIdParams, userSummaryResponse, walletHistoryQuery, walletHistoryResponse, walletSummaryResponse,
  withdrawalBody, withdrawalDecisionBody, withdrawalResponse, withdrawalsQuery, withdrawalsResponse,
} from '../../../contract/wallet.ts';
import { awaitingApprovalResponse } from '../../../contract/approvals.ts';
import { idempotent } from '../../plugins/idempotency.ts';
import { moneyContext } from '../approvals/four-eyes.ts';
import { AppError } from '../../plugins/errors.ts';
import { CSV_BATCH, sendCsv } from '../../plugins/csv.ts';
import * as repo from './wallet.repository.ts';
import * as service from './wallet.service.ts';

const readErrors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const writeErrors = { ...readErrors, 409: errorResponse, 422: errorResponse };
const tags = ['wallet'];

export async function walletRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const database = app.database;

  // One route, two lists (spec §7): the wallet transactions, or one member's ledger for the
  // Membership screen. One route has one permission: wallet_view for both.
  app.get('/users/walletHistory', {
    config: { access: 'wallet_view' },
    schema: { tags, querystring: walletHistoryQuery, response: { 200: walletHistoryResponse, ...readErrors } },
  }, async (request) => {
    const { transactionType, userId, page, limit } = request.query;
    if (transactionType === 'wallet_recharge') {
      return { success: true as const, ...(await repo.listWalletTransactions(database, page, limit, userId)), page, limit };
    }
    const member = await repo.findMember(database, userId!);
    if (!member) throw new AppError(404, `Member ${userId} not found`);
    const { history, total } = await repo.memberHistory(database, member.user_id, page, limit);
    return {
      success: true as const,
      user: { userId: Number(member.user_id), fullName: member.full_name, email: member.email, phone: member.phone, status: member.status },
      currentAmount: paiseToRupees(member.balance_paise),
      history,
      total,
      page,
      limit,
    };
  });

  app.get('/users/walletHistory.csv', {
    config: { access: 'wallet_view' },
    schema: { tags, response: readErrors },
  }, async (_request, reply) =>
    sendCsv<repo.Keyset>(reply, 'wallet-transactions.csv',
      ['ID', 'User ID', 'User', 'Full Name', 'Type', 'Amount', 'Date & Time'],
      async (cursor) => {
        const { rows, next } = await repo.walletTransactionsBatch(database, cursor, CSV_BATCH);
        return {
          rows: rows.map((r) => [r.id, r.userId, r.userName, r.fullName, r.transactionType,
            (r.transactionType === 'wallet_withdrawal' ? -r.amount : r.amount).toFixed(2), r.dateTime]),
          cursor: next,
        };
      }));

  app.post('/wallets/userWalletRecharge', {
    config: { access: 'wallet_manage' },
    schema: { tags, body: rechargeBody, response: { 200: moneyMovedResponse, 202: awaitingApprovalResponse, ...writeErrors } },
  }, async (request, reply) =>
    idempotent(database, request, reply, (tx) => service.rechargeOrWithdraw(tx, moneyContext(request), request.body)));

  app.get('/wallet/balance/:userId', {
    config: { access: 'wallet_view' },
    schema: { tags, params: userIdParams, response: { 200: balanceResponse, ...readErrors } },
  }, async (request) => {
    const member = await repo.findMember(database, request.params.userId);
    if (!member) throw new AppError(404, `Member ${request.params.userId} not found`);
    return { success: true as const, data: { userId: Number(member.user_id), balance: paiseToRupees(member.balance_paise) } };
  });

  app.get('/wallet/balances', {
    config: { access: 'wallet_view' },
    schema: { tags, querystring: balancesQuery, response: { 200: balancesResponse, ...readErrors } },
  }, async (request) => {
    const { userName, page, limit } = request.query;
    return { success: true as const, ...(await repo.listBalances(database, userName, page, limit)), page, limit };
  });

  app.get('/wallet/summary', {
    config: { access: 'wallet_view' },
    schema: { tags, response: { 200: walletSummaryResponse, ...readErrors } },
  }, async () => ({ success: true as const, data: await repo.walletSummary(database) }));

  app.get('/wallet/summary/:userId', {
    config: { access: 'wallet_view' },
    schema: { tags, params: userIdParams, response: { 200: userSummaryResponse, ...readErrors } },
  }, async (request) => {
    const data = await repo.memberSummary(database, request.params.userId);
    if (!data) throw new AppError(404, `Member ${request.params.userId} not found`);
    return { success: true as const, data };
  });

  app.get('/wallet/transactions/:id', {
    config: { access: 'wallet_view' },
    schema: { tags, params: idParams, response: { 200: transactionResponse, ...readErrors } },
  }, async (request) => {
    const data = await repo.findTransaction(database, request.params.id);
    if (!data) throw new AppError(404, `Transaction ${request.params.id} not found`);
    return { success: true as const, data };
  });

  app.post('/wallet/withdrawal', {
    config: { access: 'wallet_manage' },
    schema: { tags, body: withdrawalBody, response: { 201: withdrawalResponse, ...writeErrors } },
  }, async (request, reply) =>
    idempotent(database, request, reply, (tx) => service.requestWithdrawal(tx, moneyContext(request), request.body)));

  app.get('/wallet/withdrawals', {
    config: { access: 'wallet_view' },
    schema: { tags, querystring: withdrawalsQuery, response: { 200: withdrawalsResponse, ...readErrors } },
  }, async (request) => {
    const { status, page, limit } = request.query;
    return { success: true as const, ...(await service.listWithdrawals(database, status, page, limit)), page, limit };
  });

  app.put('/wallet/withdrawals/:id', {
    config: { access: 'wallet_manage' },
    schema: {
      tags, params: idParams, body: withdrawalDecisionBody, response: { 200: withdrawalResponse, 202: awaitingApprovalResponse, ...writeErrors },
    },
  }, async (request, reply) =>
    idempotent(database, request, reply, (tx) => service.decideWithdrawal(tx, moneyContext(request), request.params.id, request.body)));
}
