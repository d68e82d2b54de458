import type { Ctx } from '../../lib/context.ts';
import * as incomeExports from './income-export.repository.ts';
import * as income from './income.repository.ts';
import * as revenue from './revenue.repository.ts';

export function revenuePage(ctx: Ctx, filters: revenue.RevenueFilters, sort: revenue.RevenueSort, page: number, limit: number) {
  return revenue.revenuePage(ctx.database, filters, sort, page, limit);
}

export function revenueBatch(ctx: Ctx, filters: revenue.RevenueFilters, after: revenue.RevenueKeyset | null, size: number) {
  return revenue.revenueBatch(ctx.database, filters, after, size);
}

export function incomeReport(ctx: Ctx, filters: income.IncomeFilters, sort: income.IncomeSort, page: number, limit: number) {
  return income.incomeReport(ctx.database, filters, sort, page, limit);
}

/**
 * The income export's reader: the range's batches are looked up once, then `next(cursor)` gives
 * one keyset batch of receivers after another.
 */
export async function incomeExport(ctx: Ctx, filters: income.IncomeFilters, size: number) {
  if (filters.kind === 'reward' && filters.rewardType === income.LEVEL_INCOME) {
    return (cursor: incomeExports.IncomeKeyset | null) => incomeExports.levelIncomeCsvBatch(ctx.database, filters, cursor, size);
  }
  const batches = await income.batchesInRange(ctx.database, filters);
  return (cursor: incomeExports.IncomeKeyset | null) => incomeExports.incomeCsvBatch(ctx.database, filters, batches, cursor, size);
}
