import type { FastifyInstance } from 'fastify';
import { networkApi } from '../../../contract/network.ts';
import { contextOf } from '../../lib/context.ts';
import { registerEndpoints } from '../../lib/routes.ts';
import * as service from './network.service.ts';

/**
 * A member's network: direct downline, the whole tree below, the chain of referrers above, and
 * the genealogy view, whose tree is opened one node at a time, a page of children per call.
 */
export async function networkRoutes(app: FastifyInstance) {
  registerEndpoints(app, networkApi, {
    downline: async (request) => {
      const { total, members } = await service.directDownline(contextOf(request), request.query);
      return {
        statusCode: 200,
        message: total > 0 ? 'Downline fetched successfully' : 'No direct referrals found for this user.',
        totalMember: total,
        data: members,
      };
    },
    tree: async (request) => ({ success: true as const, ...(await service.downlineTree(contextOf(request), request.query)) }),
    referral: async (request) => ({ success: true as const, data: await service.referral(contextOf(request), request.params.id) }),
    upline: async (request) => {
      const { id } = request.params;
      const data = await service.upline(contextOf(request), id);
      return { success: true as const, userId: id, total: data.length, data };
    },
    children: async (request) => {
      const { userId, page, limit } = request.query;
      const { total, nodes } = await service.children(contextOf(request), request.query);
      return { success: true as const, userId, total, page, limit, data: nodes };
    },
  });
}
