import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../contract/common.ts';
import { dashboardChartsQuery, dashboardChartsResponse, dashboardStatsResponse } from '../../../contract/dashboard.ts';
import { dashboardCharts } from './dashboard.repository.ts';

// Kept by triggers in the writers' transactions (drizzle/0001): no count over the users table.
const STATS_SQL = `select name, value from stat_counters
  where name in ('users_total', 'users_active', 'users_inactive', 'membership_users')`;

export async function dashboardRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/users/getAllUser', {
    config: { access: 'dashboard_view' },
    schema: { tags: ['dashboard'], response: { 200: dashboardStatsResponse, 401: errorResponse, 403: errorResponse } },
  }, async () => {
    const rows = await app.database.query<{ name: string; value: number }>(STATS_SQL);
    const v = Object.fromEntries(rows.map((r) => [r.name, Number(r.value)]));
    return {
      success: true as const,
      data: {
        totalUsers: v.users_total ?? 0,
        activeUsers: v.users_active ?? 0,
        inactiveUsers: v.users_inactive ?? 0,
        membershipUsers: v.membership_users ?? 0,
      },
    };
  });

  app.get('/dashboard/charts', {
    config: { access: 'dashboard_view' },
    schema: {
      tags: ['dashboard'],
      querystring: dashboardChartsQuery,
      response: { 200: dashboardChartsResponse, 400: errorResponse, 401: errorResponse, 403: errorResponse },
    },
  }, async (request) => ({
    success: true as const,
    data: { days: await dashboardCharts(app.database, request.query.days) },
  }));
}
