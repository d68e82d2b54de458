import type { FastifyInstance } from 'fastify';
import { activationApi } from '../../../contract/income.ts';
import { contextOf } from '../../lib/context.ts';
import { idempotent } from '../../lib/idempotency.ts';
import { registerEndpoints } from '../../lib/routes.ts';
import { moneyContext } from '../../lib/money/movement.ts';
import * as service from './activation.service.ts';

export async function activationRoutes(app: FastifyInstance) {
  registerEndpoints(app, activationApi, {
    activate: async (request, reply) => {
      const ctx = contextOf(request);
      return idempotent(ctx, request, reply, (tx) => service.activateMembership(tx, moneyContext(ctx), request.body));
    },
    get: async (request) => ({
      success: true as const,
      data: await service.membershipOfMember(contextOf(request), request.params.userId),
    }),
  });
}
