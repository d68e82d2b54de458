import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { isoToWireDate } from '../../../contract/common';
import type { IncomeResponse, RevenueResponse, RewardType } from '../../../contract/reports';
import { ApiError, apiRequest } from '../../lib/api-client';
import { formatDate, localDay } from '../../lib/format';

export const PAGE_SIZE = 25;

/** The applied search: dates as the inputs give them (yyyy-mm-dd). */
export interface ReportSearch {
  from: string;
  to: string;
  userName: string;
}

export function reportParams(search: ReportSearch, extra: Record<string, string | number> = {}): string {
  const params = new URLSearchParams({ fromDate: isoToWireDate(search.from), toDate: isoToWireDate(search.to) });
  if (search.userName.trim()) params.set('userName', search.userName.trim());
  for (const [key, value] of Object.entries(extra)) params.set(key, String(value));
  return params.toString();
}

/** A yyyy-mm-dd day read as local midnight, so no time zone shifts it to the day before. */
/** The Date Range card. */
export function dateRangeText(search: ReportSearch): string {
  return `${formatDate(localDay(search.from))} - ${formatDate(localDay(search.to))}`;
}

export const revenueQuery = (search: ReportSearch, page: number) =>
  queryOptions({
    queryKey: ['reports', 'revenue', search, page],
    queryFn: ({ signal }) =>
      apiRequest<RevenueResponse>(`/wallets/adminRevenue?${reportParams(search, { page, limit: PAGE_SIZE })}`, { signal }),
    placeholderData: keepPreviousData,
  });

export const royaltyQuery = (search: ReportSearch, page: number) =>
  queryOptions({
    queryKey: ['reports', 'royalty', search, page],
    queryFn: ({ signal }) =>
      apiRequest<IncomeResponse>(`/royalties/royaltyStats?${reportParams(search, { page, limit: PAGE_SIZE })}`, { signal }),
    placeholderData: keepPreviousData,
  });

export const rewardsQuery = (search: ReportSearch, rewardType: RewardType, page: number) =>
  queryOptions({
    queryKey: ['reports', 'rewards', search, rewardType, page],
    queryFn: ({ signal }) =>
      apiRequest<IncomeResponse>(
        `/rewards/rewardsDaily?${reportParams(search, { transactionType: rewardType, page, limit: PAGE_SIZE })}`,
        { signal },
      ),
    placeholderData: keepPreviousData,
  });

export type ReportKind = 'revenue' | 'royalty' | 'reward';

/** Spec §8: the load errors of the revenue, royalty and reward screens. */
export function reportErrorMessage(error: unknown, kind: ReportKind): string {
  const status = error instanceof ApiError ? error.status : 0;
  const message = error instanceof Error ? error.message : String(error);
  if (status === 401 || message.includes('401')) return 'Authentication failed. Please login again.';
  if (status === 400) {
    return kind === 'revenue' ? 'Invalid date format. Please check your date selection.' : 'Invalid request parameters...';
  }
  if (status >= 500) return 'Server error. Please try again later.';
  return `Failed to load ${kind} data: ${message}`;
}
