import type { FastifyInstance } from 'fastify';

/** Groundwork placeholder (issue 16): the endpoints are registered when the module is built. */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- placeholder until built
export async function activationRoutes(_app: FastifyInstance) {}
