import type { FastifyInstance } from 'fastify';

/** The Staff screen's API (issue 13): filled in by the staff work. */
export async function staffRoutes(_fastify: FastifyInstance) {}
