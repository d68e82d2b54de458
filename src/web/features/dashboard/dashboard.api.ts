import { queryOptions } from '@tanstack/react-query';
import { dashboardChartsResponse, dashboardStatsResponse, type DashboardCharts, type DashboardStats } from '../../../contract/dashboard';
import { apiRequest } from '../../lib/api-client';

export const dashboardStatsQuery = () =>
  queryOptions({
    queryKey: ['dashboard', 'stats'],
    queryFn: async ({ signal }): Promise<DashboardStats> => {
      const body = await apiRequest<unknown>('/users/getAllUser', { signal });
      const parsed = dashboardStatsResponse.safeParse(body);
      if (!parsed.success) throw new Error('Invalid API response format');
      return parsed.data.data;
    },
  });

/** Shown only when loading fails, badged as sample data: zeros, so nothing looks like a real figure. */
export const FALLBACK_STATS: DashboardStats = { totalUsers: 0, activeUsers: 0, inactiveUsers: 0, membershipUsers: 0 };

export const dashboardChartsQuery = (days = 30) =>
  queryOptions({
    queryKey: ['dashboard', 'charts', days],
    queryFn: async ({ signal }): Promise<DashboardCharts> => {
      const parsed = dashboardChartsResponse.safeParse(await apiRequest<unknown>(`/dashboard/charts?days=${days}`, { signal }));
      if (!parsed.success) throw new Error('Invalid API response format');
      return parsed.data.data;
    },
  });
