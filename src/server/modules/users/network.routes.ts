import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../contract/common.ts';
import {
  downlineQuery, downlineResponse, downlineTreeQuery, downlineTreeResponse, idParam, referralResponse, uplineResponse,
} from '../../../contract/users.ts';
import { directDownline, directReferralCount, downlineTree, upline } from './network.repository.ts';
import { requireUser } from './users.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };

/** A member's network: direct downline, the chain of referrers above, and the whole tree below. */
export async function networkRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/users/downline', {
    config: { access: 'users_view' },
    schema: { tags: ['users'], querystring: downlineQuery, response: { 200: downlineResponse, ...errors } },
  }, async (request) => {
    const { userId, page, limit } = request.query;
    await requireUser(app, userId);
    const { total, members } = await directDownline(app.database, userId, page, limit);
    return {
      statusCode: 200,
      message: total > 0 ? 'Downline fetched successfully' : 'No direct referrals found for this user.',
      totalMember: total,
      data: members,
    };
  });

  app.get('/users/downline-tree', {
    config: { access: 'users_view' },
    schema: { tags: ['users'], querystring: downlineTreeQuery, response: { 200: downlineTreeResponse, ...errors } },
  }, async (request) => {
    const { userId, depth, limit } = request.query;
    // Both at once: an unknown member has no downline_counts rows, and the 404 wins anyway.
    const [member, levels] = await Promise.all([requireUser(app, userId), downlineTree(app.database, userId, depth, limit)]);
    return {
      success: true as const,
      user: { userId, fullName: member.fullName, level: member.level, referralCode: member.referralCode, status: member.status },
      depth,
      totalMember: levels.reduce((sum, l) => sum + l.count, 0),
      levels,
    };
  });

  app.get('/users/getReferral/:id', {
    config: { access: 'users_view' },
    schema: { tags: ['users'], params: idParam, response: { 200: referralResponse, ...errors } },
  }, async (request) => {
    const member = await requireUser(app, request.params.id);
    return {
      success: true as const,
      data: {
        userId: member.userId,
        fullName: member.fullName,
        referralCode: member.referralCode,
        level: member.level,
        referredBy: member.referredBy,
        referrerName: member.referrerName,
        directReferrals: await directReferralCount(app.database, member.userId),
      },
    };
  });

  app.get('/users/getUserUpline/:id', {
    config: { access: 'users_view' },
    schema: { tags: ['users'], params: idParam, response: { 200: uplineResponse, ...errors } },
  }, async (request) => {
    const { id } = request.params;
    await requireUser(app, id);
    const data = await upline(app.database, id);
    return { success: true as const, userId: id, total: data.length, data };
  });
}
