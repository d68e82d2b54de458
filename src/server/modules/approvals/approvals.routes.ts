import type { FastifyInstance } from 'fastify';

/** The Approvals screen's API (issue 13): filled in by the four-eyes work. */
export async function approvalsRoutes(_fastify: FastifyInstance) {}
