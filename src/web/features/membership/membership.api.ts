import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { isoToWireDate } from '../../../contract/common';
import { membershipApi, type MembershipPage } from '../../../contract/membership';
import type { z } from 'zod';
import { walletApi, type memberHistoryResponse } from '../../../contract/wallet';
import { client } from '../../lib/api-client';

const membership = client(membershipApi);
const wallet = client(walletApi);

export const MEMBERS_PAGE_SIZE = 25;

/** From/To as date inputs give them (yyyy-mm-dd); sent as dd-mm-yyyy (spec §5). */
export interface DateRange {
  from: string;
  to: string;
}

/** The members call of a page: the range's days as dd-mm-yyyy. */
export const membersInput = (range: DateRange | null, page: number) => ({
  query: {
    page,
    limit: MEMBERS_PAGE_SIZE,
    ...(range ? { fromDate: isoToWireDate(range.from), toDate: isoToWireDate(range.to) } : {}),
  },
});

export const membersQuery = (range: DateRange | null, page: number) => {
  const input = membersInput(range, page);
  return queryOptions({
    queryKey: membership.list.key(input),
    queryFn: ({ signal }): Promise<MembershipPage> => membership.list(input, { signal }),
    placeholderData: keepPreviousData,
  });
};

export type AmountHistory = z.infer<typeof memberHistoryResponse>;

/** A member's wallet ledger: the wallet module's history call in its one-member (dailyPayout) mode. */
export const historyInput = (userId: number) => ({ query: { transactionType: 'dailyPayout' as const, userId } });

export const fetchAmountHistory = async (userId: number, signal?: AbortSignal): Promise<AmountHistory> => {
  const answer = await wallet.history(historyInput(userId), { signal });
  if (!('history' in answer)) throw new Error('Invalid response format');
  return answer;
};

/** Keyed as the wallet's call: a wallet change refreshes the amount history too. */
export const amountHistoryQuery = (userId: number) =>
  queryOptions({
    queryKey: wallet.history.key(historyInput(userId)),
    queryFn: ({ signal }) => fetchAmountHistory(userId, signal),
  });
