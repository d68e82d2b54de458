import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { isoToWireDate, type SortValue } from '../../../contract/common';
import { reportsApi, type INCOME_SORTS, type REVENUE_SORTS, type RewardType } from '../../../contract/reports';
import { ApiError, client } from '../../lib/api-client';
import { formatDate, localDay } from '../../lib/format';

export const PAGE_SIZE = 25;

const reports = client(reportsApi);

/** The applied search: dates as the inputs give them (yyyy-mm-dd). */
export type ReportSearch = {
  from: string;
  to: string;
  userName: string;
};

/** The search as the API takes it: wire dates, and no user name when none is given. */
function rangeQuery(search: ReportSearch) {
  return { fromDate: isoToWireDate(search.from), toDate: isoToWireDate(search.to), userName: search.userName.trim() || undefined };
}

/** The Date Range card. */
export function dateRangeText(search: ReportSearch): string {
  return `${formatDate(localDay(search.from))} - ${formatDate(localDay(search.to))}`;
}

/** Revenue rows: `dateTime` / `amount`, either direction (contract REVENUE_SORTS). */
export type RevenueSort = SortValue<(typeof REVENUE_SORTS)[number]>;
/** Royalty and reward users by income (contract INCOME_SORTS). */
export type IncomeSort = SortValue<(typeof INCOME_SORTS)[number]>;

/** An order from the address, or the fallback when the address holds an unknown one. */
export function knownSort<S extends string>(value: string, keys: readonly string[], fallback: S): S {
  return keys.flatMap((k) => [k, `-${k}`]).includes(value) ? (value as S) : fallback;
}

export const revenueQuery = (search: ReportSearch, page: number, sort: RevenueSort = '-dateTime') => {
  const input = { query: { ...rangeQuery(search), page, limit: PAGE_SIZE, sort } };
  return queryOptions({
    queryKey: reports.revenue.key(input),
    queryFn: ({ signal }) => reports.revenue(input, { signal }),
    placeholderData: keepPreviousData,
  });
};

export const royaltyQuery = (search: ReportSearch, page: number, sort: IncomeSort = '-amount') => {
  const input = { query: { ...rangeQuery(search), page, limit: PAGE_SIZE, sort } };
  return queryOptions({
    queryKey: reports.royalty.key(input),
    queryFn: ({ signal }) => reports.royalty(input, { signal }),
    placeholderData: keepPreviousData,
  });
};

export const rewardsQuery = (search: ReportSearch, rewardType: RewardType, page: number, sort: IncomeSort = '-amount') => {
  const input = { query: { ...rangeQuery(search), transactionType: rewardType, page, limit: PAGE_SIZE, sort } };
  return queryOptions({
    queryKey: reports.rewards.key(input),
    queryFn: ({ signal }) => reports.rewards(input, { signal }),
    placeholderData: keepPreviousData,
  });
};

/** A report export's input: the applied search's whole range, without paging. */
export const reportCsvInput = (search: ReportSearch) => ({ query: rangeQuery(search) });

export type ReportKind = 'revenue' | 'royalty' | 'reward';

/** Spec §8: the load errors of the revenue, royalty and reward screens. */
export function reportErrorMessage(error: unknown, kind: ReportKind): string {
  const status = error instanceof ApiError ? error.status : 0;
  const message = error instanceof Error ? error.message : String(error);
  if (status === 401) return 'Authentication failed. Please login again.';
  if (status === 400) {
    return kind === 'revenue' ? 'Invalid date format. Please check your date selection.' : 'Invalid request parameters...';
  }
  if (status >= 500) return 'Server error. Please try again later.';
  return `Failed to load ${kind} data: ${message}`;
}

/** The longest range whose chart gets every day filled in (a year and a day). */
const MAX_FILLED_DAYS = 366;

/**
 * The revenue chart's points: every day of the search's range, ₹0 on a day without revenue, so
 * that the line neither skips quiet days nor joins two busy days across them.
 */
export function revenueChartDays(search: ReportSearch, daily: { date: string; amount: number }[]): { date: string; amount: number }[] {
  const start = Date.parse(`${search.from}T00:00:00Z`);
  const end = Date.parse(`${search.to}T00:00:00Z`);
  const days = Math.round((end - start) / 86_400_000) + 1;
  if (!Number.isFinite(days) || days < 1 || days > MAX_FILLED_DAYS) return daily;
  const amounts = new Map(daily.map((d) => [d.date, d.amount]));
  return Array.from({ length: days }, (_, i) => {
    const date = new Date(start + i * 86_400_000).toISOString().slice(0, 10);
    return { date, amount: amounts.get(date) ?? 0 };
  });
}
