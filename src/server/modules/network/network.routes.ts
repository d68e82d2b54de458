import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../contract/common.ts';
import { networkChildrenQuery, networkChildrenResponse } from '../../../contract/network.ts';
import { AppError } from '../../plugins/errors.ts';
import { childrenPage, memberExists } from './network.repository.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };

/** The genealogy view: a member's tree is opened one node at a time, a page of children per call. */
export async function genealogyRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/network/children', {
    config: { access: 'users_view' },
    schema: { tags: ['users'], querystring: networkChildrenQuery, response: { 200: networkChildrenResponse, ...errors } },
  }, async (request) => {
    const { userId, page, limit } = request.query;
    if (!(await memberExists(app.database, userId))) throw new AppError(404, 'User ID not found');
    const { total, nodes } = await childrenPage(app.database, userId, page, limit);
    return { success: true as const, userId, total, page, limit, data: nodes };
  });
}
