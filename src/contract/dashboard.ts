import { z } from 'zod';
import { endpoints } from './endpoint.ts';

export const dashboardStats = z.object({
  totalUsers: z.number(),
  activeUsers: z.number(),
  inactiveUsers: z.number(),
  membershipUsers: z.number(),
});
export type DashboardStats = z.infer<typeof dashboardStats>;

export const dashboardStatsResponse = z.object({ success: z.literal(true), data: dashboardStats });

/** One business day (Asia/Kolkata) of the dashboard charts. */
export const dashboardDay = z.object({
  date: z.string(),
  newMembers: z.number(),
  /** Membership fees, in rupees. */
  revenue: z.number(),
  payoutsSuccess: z.number(),
  payoutsFailure: z.number(),
});
export type DashboardDay = z.infer<typeof dashboardDay>;

export const dashboardChartsQuery = z.object({
  days: z.coerce.number().int().min(7).max(90).default(30),
});

export const dashboardChartsResponse = z.object({
  success: z.literal(true),
  data: z.object({ days: z.array(dashboardDay) }),
});
export type DashboardCharts = z.infer<typeof dashboardChartsResponse>['data'];

export const dashboardApi = endpoints('dashboard', {
  /** The four statistics, at the path the spec gives them. */
  stats: { method: 'GET', path: '/users/getAllUser', access: 'dashboard_view', responses: { 200: dashboardStatsResponse } },
  charts: { method: 'GET', path: '/dashboard/charts', access: 'dashboard_view', query: dashboardChartsQuery, responses: { 200: dashboardChartsResponse } },
});
