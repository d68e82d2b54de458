import { queryOptions } from '@tanstack/react-query';
import { dashboardApi, type DashboardCharts, type DashboardStats } from '../../../contract/dashboard';
import { client } from '../../lib/api-client';

const dashboard = client(dashboardApi);

export const dashboardStatsQuery = () =>
  queryOptions({
    queryKey: dashboard.stats.key(),
    queryFn: async ({ signal }): Promise<DashboardStats> => (await dashboard.stats(undefined, { signal })).data,
  });

/** Shown only when loading fails, badged as sample data: zeros, so nothing looks like a real figure. */
export const FALLBACK_STATS: DashboardStats = { totalUsers: 0, activeUsers: 0, inactiveUsers: 0, membershipUsers: 0 };

export const dashboardChartsQuery = (days = 30) =>
  queryOptions({
    queryKey: dashboard.charts.key({ query: { days } }),
    queryFn: async ({ signal }): Promise<DashboardCharts> => (await dashboard.charts({ query: { days } }, { signal })).data,
  });
