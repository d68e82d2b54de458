import type { FastifyInstance } from 'fastify';
import { ranksApi } from '../../../contract/ranks.ts';
import { contextOf } from '../../lib/context.ts';
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
  });
}
