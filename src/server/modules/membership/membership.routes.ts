import type { FastifyInstance } from 'fastify';
import { membershipApi } from '../../../contract/membership.ts';
import { contextOf } from '../../lib/context.ts';
import { registerEndpoints } from '../../lib/routes.ts';
import * as service from './membership.service.ts';

export async function membershipRoutes(app: FastifyInstance) {
  registerEndpoints(app, membershipApi, {
    list: async (request) => {
      const q = request.query;
      const { data, total } = await service.listMembers(contextOf(request), q);
      return { success: true as const, data, total, page: q.page, limit: q.limit };
    },
  });
}
