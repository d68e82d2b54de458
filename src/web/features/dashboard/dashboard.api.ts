import { queryOptions } from '@tanstack/react-query';
import { dashboardStatsResponse, type DashboardStats } from '../../../contract/dashboard';
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
