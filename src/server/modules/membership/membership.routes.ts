import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../contract/common.ts';
import { membershipQuery, membershipResponse } from '../../../contract/membership.ts';
import { listMembers } from './membership.repository.ts';

export async function membershipRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/users/membership', {
    config: { access: 'membership_view' },
    schema: {
      tags: ['membership'],
      querystring: membershipQuery,
      response: { 200: membershipResponse, 400: errorResponse, 401: errorResponse, 403: errorResponse },
    },
  }, async (request) => {
    const q = request.query;
    const { data, total } = await listMembers(app.database, q);
    return { success: true as const, data, total, page: q.page, limit: q.limit };
  });
}
