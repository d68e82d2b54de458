import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { walletApi, type MemberBalance, type RechargeBody } from '../../../contract/wallet';
import { ApiError, client } from '../../lib/api-client';

export const PAGE_SIZE = 25;

const wallet = client(walletApi);

export const walletTransactionsQuery = (page: number) => {
  const input = { query: { transactionType: 'wallet_recharge' as const, page, limit: PAGE_SIZE } };
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

/** The user select is fed by the server: a name fragment finds members among a million. */
export const memberOptionsQuery = (userName: string) => {
  const input = { query: { limit: 20, userName: userName.trim() || undefined } };
  return queryOptions({
    queryKey: wallet.balances.key(input),
    queryFn: async ({ signal }): Promise<MemberBalance[]> => (await wallet.balances(input, { signal })).data,
    placeholderData: keepPreviousData,
  });
};

export function useCreateTransaction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ idempotencyKey, ...body }: RechargeBody & { idempotencyKey: string }) => wallet.recharge({ body }, { idempotencyKey }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [walletApi.history.group] }),
  });
}
