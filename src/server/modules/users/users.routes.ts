import type { FastifyInstance, FastifyRequest } from 'fastify';
import { usersApi } from '../../../contract/users.ts';
import { contextOf } from '../../lib/context.ts';
import { keysetBatches, sendCsv } from '../../lib/csv.ts';
import { idempotent } from '../../lib/idempotency.ts';
import { AppError } from '../../lib/errors.ts';
import { registerEndpoints } from '../../lib/routes.ts';
import * as service from './users.service.ts';

/**
 * The body schema drops keys it does not know, so a role sent to the member route would vanish
 * behind "User updated successfully" (issue 13 finding 1): it is refused before validation.
 */
async function refuseRoleInMemberBody(request: FastifyRequest): Promise<void> {
  const { method, path } = usersApi.update;
  if (request.method !== method || !request.routeOptions.url?.endsWith(path)) return;
  const body = request.body;
  if (body && typeof body === 'object' && ('role' in body || 'roleId' in body)) {
    throw new AppError(400, 'Roles are assigned on the Staff screen, not on member records');
  }
}

/** Member records: the list, one member, and adding, changing and deleting members. */
export async function usersRoutes(app: FastifyInstance) {
  app.addHook('preValidation', refuseRoleInMemberBody);
  registerEndpoints(app, usersApi, {
    list: async (request) => {
      const q = request.query;
      const { users, total } = await service.listUsers(contextOf(request), q);
      return { success: true as const, users, total, page: q.page, limit: q.limit };
    },
    levels: async (request) => ({ success: true as const, levels: await service.memberLevels(contextOf(request)) }),
    byRank: async (request) => {
      const q = request.query;
      const { users, total } = await service.listUsersByRank(contextOf(request), q);
      return { success: true as const, users, total, page: q.page, limit: q.limit };
    },
    get: async (request) => ({ success: true as const, user: await service.requireMember(contextOf(request), request.params.id) }),
    update: async (request) => ({
      success: true as const,
      message: 'User updated successfully',
      updatedUser: await service.updateMember(contextOf(request), request.params.id, request.body),
    }),
    create: async (request) => ({
      success: true as const,
      message: 'User created successfully',
      user: await service.registerMember(contextOf(request), request.body),
    }),
    remove: async (request) => {
      await service.deleteMember(contextOf(request), request.params.userId);
      return { success: true as const, message: 'User deleted successfully' };
    },
    ids: async (request) => ({ success: true as const, ...(await service.memberIds(contextOf(request), request.query)) }),
    bulkStatus: async (request, reply) => {
      // Under the request's Idempotency-Key: a retried chunk replays its first answer.
      const ctx = contextOf(request);
      return idempotent(ctx, request, reply, (tx) => service.bulkSetStatus(tx, ctx, request.body));
    },
    csv: async (request, reply) => {
      // The filtered list, every match, by user id (keyset), whatever the screen's order.
      const ctx = contextOf(request);
      return sendCsv<number>(
        reply,
        'users.csv',
        ['User ID', 'Full Name', 'Email', 'Phone', 'Level', 'Rank', 'Referred By', 'Referral Code', 'Status', 'State', 'Joined'],
        keysetBatches({
          read: (afterId, limit) => service.membersBatch(ctx, request.query, afterId ?? 0, limit),
          cells: (u) => [
            u.userId, u.fullName, u.email, u.phone, u.level, u.rank, u.referrerName ?? u.referredBy, u.referralCode,
            u.status ? 'Active' : 'Inactive', u.state, u.createdAt,
          ],
          key: (u) => u.userId,
        }),
      );
    },
  });
}
