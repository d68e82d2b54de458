import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { isoToWireDate } from '../../../contract/common';
import { amountHistory, membershipResponse, type AmountHistory, type MembershipPage } from '../../../contract/membership';
import { apiRequest } from '../../lib/api-client';

export const MEMBERS_PAGE_SIZE = 25;

/** From/To as date inputs give them (yyyy-mm-dd); sent as dd-mm-yyyy (spec §5). */
export interface DateRange {
  from: string;
  to: string;
}

export function membersPath(range: DateRange | null, page: number): string {
  const q = new URLSearchParams({ page: String(page), limit: String(MEMBERS_PAGE_SIZE) });
  if (range) {
    q.set('fromDate', isoToWireDate(range.from));
    q.set('toDate', isoToWireDate(range.to));
  }
  return `/users/membership?${q}`;
}

export const membersQuery = (range: DateRange | null, page: number) =>
  queryOptions({
    queryKey: ['membership', 'members', range, page],
    queryFn: async ({ signal }): Promise<MembershipPage> => {
      const parsed = membershipResponse.safeParse(await apiRequest<unknown>(membersPath(range, page), { signal }));
      if (!parsed.success) throw new Error('Invalid data format from API');
      return parsed.data;
    },
    placeholderData: keepPreviousData,
  });

export const historyPath = (userId: number) => `/users/walletHistory?transactionType=dailyPayout&userId=${userId}`;

export const amountHistoryQuery = (userId: number) =>
  queryOptions({
    queryKey: ['membership', 'history', userId],
    queryFn: async ({ signal }): Promise<AmountHistory> => {
      const parsed = amountHistory.safeParse(await apiRequest<unknown>(historyPath(userId), { signal }));
      if (!parsed.success) throw new Error('Invalid response format');
      return parsed.data;
    },
  });
