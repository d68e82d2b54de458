import { keepPreviousData, queryOptions, useMutation, useQueryClient, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { isoToWireDate } from '../../../contract/common';
import { WALLET_SORT_KEYS, walletApi, type MemberBalance, type RechargeBody, type WalletSort } from '../../../contract/wallet';
import { LEDGER_KIND_NAMES, type LedgerKindName } from '../../../contract/ledger-kinds';
import { ApiError, client } from '../../lib/api-client';

export const PAGE_SIZE = 25;

const wallet = client(walletApi);

/**
 * The wallet list's view as the address keeps it ('' is none): member id, type, From/To
 * (yyyy-mm-dd, as the date inputs give them), the amounts exactly as typed, and the order.
 */
export const WALLET_FILTERS = { user: '', type: '', from: '', to: '', min: '', max: '', sort: '-createdAt' };
export type WalletView = typeof WALLET_FILTERS;

const SORTS: readonly string[] = WALLET_SORT_KEYS.flatMap((k) => [k, `-${k}`]);

/** The list call's query for a view: wire dates dd-mm-yyyy, amounts sent as typed (the server reads them into paise). */
export function walletQueryOf(view: WalletView) {
  return {
    userId: view.user ? Number(view.user) : undefined,
    // Any kind of the ledger (issue 24); an unknown one from the address is none.
    type: (LEDGER_KIND_NAMES as readonly string[]).includes(view.type) ? (view.type as LedgerKindName) : undefined,
    fromDate: view.from ? isoToWireDate(view.from) : undefined,
    toDate: view.to ? isoToWireDate(view.to) : undefined,
    minAmount: view.min.trim() || undefined,
    maxAmount: view.max.trim() || undefined,
    sort: (SORTS.includes(view.sort) ? view.sort : WALLET_FILTERS.sort) as WalletSort,
  };
}

export const walletTransactionsQuery = (view: WalletView, page: number) => {
  const input = { query: { transactionType: 'wallet_recharge' as const, ...walletQueryOf(view), page, limit: PAGE_SIZE } };
  return queryOptions({
    queryKey: wallet.history.key(input),
    // The route answers one member's ledger too; this list is always the transactions page.
    queryFn: async ({ signal }) => {
      const answer = await wallet.history(input, { signal });
      if (!('data' in answer)) throw new ApiError(200, 'Invalid data format from API', false, [], answer);
      return answer;
    },
    placeholderData: keepPreviousData,
  });
};

/**
 * The Add New Transaction member picker's search: members by name with their balance (the
 * picker's `search`, so typed for any query key).
 */
export const memberOptionsQuery = (userName: string): UseQueryOptions<MemberBalance[], Error, MemberBalance[], QueryKey> => {
  const input = { query: { limit: 20, userName: userName.trim() || undefined } };
  return {
    queryKey: wallet.balances.key(input),
    queryFn: async ({ signal }): Promise<MemberBalance[]> => (await wallet.balances(input, { signal })).data,
    placeholderData: keepPreviousData,
  };
};

/** What the signed-in operator may still move today, and for one member before a checker must approve (issue 22). */
export const myDayQuery = (userId: number | null) =>
  queryOptions({
    queryKey: wallet.myDay.key({ query: { userId: userId ?? undefined } }),
    queryFn: async ({ signal }) => (await wallet.myDay({ query: { userId: userId ?? undefined } }, { signal })).data,
  });

export function useCreateTransaction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ idempotencyKey, ...body }: RechargeBody & { idempotencyKey: string }) => wallet.recharge({ body }, { idempotencyKey }),
    // The feature's group: the history and what is left of the operator's day refresh together.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [walletApi.history.group] }),
  });
}
