import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { isoToWireDate } from '../../../contract/common';
import { reportsApi, type RewardType } from '../../../contract/reports';
import { ApiError, client } from '../../lib/api-client';
import { formatDate, localDay } from '../../lib/format';

export const PAGE_SIZE = 25;

const reports = client(reportsApi);

/** The applied search: dates as the inputs give them (yyyy-mm-dd). */
export interface ReportSearch {
  from: string;
  to: string;
  userName: string;
}

/** The search as the API takes it: wire dates, and no user name when none is given. */
function rangeQuery(search: ReportSearch) {
  return { fromDate: isoToWireDate(search.from), toDate: isoToWireDate(search.to), userName: search.userName.trim() || undefined };
}

/** The Date Range card. */
export function dateRangeText(search: ReportSearch): string {
  return `${formatDate(localDay(search.from))} - ${formatDate(localDay(search.to))}`;
}

export const revenueQuery = (search: ReportSearch, page: number) => {
  const input = { query: { ...rangeQuery(search), page, limit: PAGE_SIZE } };
  return queryOptions({
    queryKey: reports.revenue.key(input),
    queryFn: ({ signal }) => reports.revenue(input, { signal }),
    placeholderData: keepPreviousData,
  });
};

export const royaltyQuery = (search: ReportSearch, page: number) => {
  const input = { query: { ...rangeQuery(search), page, limit: PAGE_SIZE } };
  return queryOptions({
    queryKey: reports.royalty.key(input),
    queryFn: ({ signal }) => reports.royalty(input, { signal }),
    placeholderData: keepPreviousData,
  });
};

export const rewardsQuery = (search: ReportSearch, rewardType: RewardType, page: number) => {
  const input = { query: { ...rangeQuery(search), transactionType: rewardType, page, limit: PAGE_SIZE } };
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
