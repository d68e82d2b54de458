import type { FastifyInstance } from 'fastify';
import { systemApi } from '../../../contract/system.ts';
import { contextOf } from '../../lib/context.ts';
import { registerEndpoints } from '../../lib/routes.ts';
import * as service from './system.service.ts';

export async function systemRoutes(app: FastifyInstance) {
  registerEndpoints(app, systemApi, {
    root: async () => ({ success: true as const, message: 'Backoffice API is running', version: '1.0.0' }),
    health: async (request, reply) => {
      const answer = await service.health(contextOf(request));
      return answer.success ? answer : reply.code(503).send(answer);
    },
  });
}
