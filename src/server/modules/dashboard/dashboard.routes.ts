import type { FastifyInstance } from 'fastify';
import { dashboardApi } from '../../../contract/dashboard.ts';
import { contextOf } from '../../lib/context.ts';
import { registerEndpoints } from '../../lib/routes.ts';
import * as service from './dashboard.service.ts';

export async function dashboardRoutes(app: FastifyInstance) {
  registerEndpoints(app, dashboardApi, {
    stats: async (request) => ({ success: true as const, data: await service.stats(contextOf(request)) }),
    charts: async (request) => ({
      success: true as const,
      data: { days: await service.charts(contextOf(request), request.query.days) },
    }),
  });
}
