import { z } from 'zod';

export const dashboardStats = z.object({
  totalUsers: z.number(),
  activeUsers: z.number(),
  inactiveUsers: z.number(),
  membershipUsers: z.number(),
});
export type DashboardStats = z.infer<typeof dashboardStats>;

export const dashboardStatsResponse = z.object({ success: z.literal(true), data: dashboardStats });
