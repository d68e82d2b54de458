import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';

const rootResponse = z.object({ success: z.literal(true), message: z.string(), version: z.string() });
const healthResponse = z.object({
  success: z.boolean(),
  status: z.enum(['ok', 'unavailable']),
  database: z.string(),
});

export async function systemRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  // The panel's connection test (spec §7).
  app.get('/', {
    config: { access: 'public' },
    schema: { tags: ['system'], response: { 200: rootResponse } },
  }, async () => ({ success: true as const, message: 'Backoffice API is running', version: '1.0.0' }));

  // For load balancers: 200 only when the database answers, and at once even while every pooled
  // connection is busy with heavy requests (ping has its own connection), or a balancer would
  // take a busy copy for a dead one.
  app.get('/health', {
    config: { access: 'public' },
    schema: { tags: ['system'], response: { 200: healthResponse, 503: healthResponse } },
  }, async (_request, reply) => {
    try {
      await app.database.ping();
      return { success: true, status: 'ok' as const, database: app.database.kind };
    } catch {
      return reply.code(503).send({ success: false, status: 'unavailable' as const, database: app.database.kind });
    }
  });
}
