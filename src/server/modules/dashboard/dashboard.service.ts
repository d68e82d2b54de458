import type { DashboardDay, DashboardStats } from '../../../contract/dashboard.ts';
import type { Ctx } from '../../lib/context.ts';
import * as repo from './dashboard.repository.ts';

export const stats = (ctx: Ctx): Promise<DashboardStats> => repo.stats(ctx.database);

export const charts = (ctx: Ctx, days: number): Promise<DashboardDay[]> => repo.charts(ctx.database, days);
