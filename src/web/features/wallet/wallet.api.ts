import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { RechargeBody, WalletTransactionsPage } from '../../../contract/wallet';
import { apiRequest } from '../../lib/api-client';
import type { MoneyAnswer } from '../../lib/money-request';

export const PAGE_SIZE = 25;

export const walletTransactionsQuery = (page: number) =>
  queryOptions({
    queryKey: ['wallet', 'transactions', page],
    queryFn: ({ signal }) =>
      apiRequest<WalletTransactionsPage>(`/users/walletHistory?transactionType=wallet_recharge&page=${page}&limit=${PAGE_SIZE}`, { signal }),
    placeholderData: keepPreviousData,
  });

export interface MemberOption {
  userId: number;
  fullName: string;
  balance: number;
}

/** The user select is fed by the server: a name fragment finds members among a million. */
export const memberOptionsQuery = (userName: string) =>
  queryOptions({
    queryKey: ['wallet', 'members', userName],
    queryFn: async ({ signal }) => {
      const params = new URLSearchParams({ limit: '20' });
      if (userName.trim()) params.set('userName', userName.trim());
      const res = await apiRequest<{ data: MemberOption[] }>(`/wallet/balances?${params}`, { signal });
      return res.data;
    },
    placeholderData: keepPreviousData,
  });

export function useCreateTransaction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ idempotencyKey, ...body }: RechargeBody & { idempotencyKey: string }) =>
      apiRequest<MoneyAnswer>('/wallets/userWalletRecharge', { method: 'POST', body, idempotencyKey }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['wallet'] }),
  });
}
