import type { FastifyInstance } from 'fastify';
import { banksApi } from '../../../contract/banks.ts';
import { contextOf } from '../../lib/context.ts';
import { keysetBatches, sendCsv } from '../../lib/csv.ts';
import { registerEndpoints } from '../../lib/routes.ts';
import * as service from './banks.service.ts';

export async function banksRoutes(app: FastifyInstance) {
  registerEndpoints(app, banksApi, {
    ofUser: async (request) => ({ success: true as const, data: await service.banksOfUser(contextOf(request), request.params.userId) }),
    list: async (request) => {
      const q = request.query;
      const { data, total } = await service.listBanks(contextOf(request), q);
      return { success: true as const, data, total, page: q.page, limit: q.limit };
    },
    create: async (request, reply) => {
      const answer = await service.createBank(contextOf(request), request.body);
      return reply.code(answer.status).send(answer.body);
    },
    update: async (request, reply) => {
      const answer = await service.updateBank(contextOf(request), request.params.id, request.body);
      return reply.code(answer.status).send(answer.body);
    },
    remove: async (request) => {
      await service.deleteBank(contextOf(request), request.params.id);
      return { success: true as const, message: 'Bank account deleted successfully' };
    },
    csv: async (request, reply) => {
      const ctx = contextOf(request);
      return sendCsv<number>(
        reply,
        'bank-accounts.csv',
        ['Bank ID', 'User ID', 'Member', 'Account Holder', 'Account Number', 'IFSC', 'Bank', 'Branch', 'Primary', 'Added'],
        keysetBatches({
          read: (afterId, limit) => service.banksBatch(ctx, afterId ?? 0, limit),
          cells: (b) => [
            b.bankId, b.userId, b.memberName, b.accountHolderName, b.accountNumber, b.ifsc, b.bank, b.branch, b.isPrimary ? 'Yes' : 'No', b.createdAt,
          ],
          key: (b) => b.bankId,
        }),
      );
    },
  });
}
