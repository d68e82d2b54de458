import type { FastifyInstance } from 'fastify';
import { ranksApi } from '../../../contract/ranks.ts';
import { contextOf } from '../../lib/context.ts';
import { keysetBatches, sendCsv } from '../../lib/csv.ts';
import { registerEndpoints } from '../../lib/routes.ts';
import * as service from './ranks.service.ts';

export async function ranksRoutes(app: FastifyInstance) {
  registerEndpoints(app, ranksApi, {
    list: async (request) => ({ success: true as const, data: await service.listRanks(contextOf(request)) }),
    get: async (request) => ({ success: true as const, data: await service.getRank(contextOf(request), request.params.id) }),
    create: async (request) => ({
      success: true as const,
      message: 'Rank created successfully',
      data: await service.createRank(contextOf(request), request.body),
    }),
    update: async (request) => ({
      success: true as const,
      message: 'Rank updated successfully',
      data: await service.updateRank(contextOf(request), request.params.id, request.body),
    }),
    remove: async (request) => {
      await service.deleteRank(contextOf(request), request.params.id);
      return { success: true as const, message: 'Rank deleted successfully' };
    },
    csv: async (request, reply) => {
      const ctx = contextOf(request);
      return sendCsv<number>(
        reply,
        'ranks.csv',
        ['Rank ID', 'Name', 'Status', 'Position', 'Royalty weight', 'Minimum direct referrals', 'Minimum team size',
          'Minimum team business (INR)', 'Monthly reward (INR)', 'Created'],
        keysetBatches({
          read: (afterId, limit) => service.ranksBatch(ctx, afterId ?? 0, limit),
          cells: (r) => [
            r.rankId, r.name, r.status ? 'Active' : 'Inactive', r.position, r.royaltyWeight, r.minDirect, r.minTeam,
            r.minBusiness.toFixed(2), r.monthlyReward.toFixed(2), r.createdAt,
          ],
          key: (r) => r.rankId,
        }),
      );
    },
  });
}
