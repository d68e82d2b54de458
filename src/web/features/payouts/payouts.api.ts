import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { isoToWireDate } from '../../../contract/common';
import type { PayoutsPage } from '../../../contract/payouts';
import { apiRequest } from '../../lib/api-client';
import type { MoneyAnswer } from '../../lib/money-request';

export const PAGE_SIZE = 25;

/** The applied filters; dates as the inputs give them (yyyy-mm-dd), empty = not set. */
export interface PayoutFilters {
  from: string;
  to: string;
  userName: string;
  status: '' | 'Success' | 'Failure';
}

export function payoutParams(f: PayoutFilters, extra: Record<string, string | number> = {}): string {
  const params = new URLSearchParams();
  if (f.from) params.set('fromDate', isoToWireDate(f.from));
  if (f.to) params.set('toDate', isoToWireDate(f.to));
  if (f.userName.trim()) params.set('userName', f.userName.trim());
  if (f.status) params.set('status', f.status);
  for (const [key, value] of Object.entries(extra)) params.set(key, String(value));
  return params.toString();
}

export const payoutsQuery = (filters: PayoutFilters, page: number) =>
  queryOptions({
    queryKey: ['payouts', filters, page],
    queryFn: ({ signal }) => apiRequest<PayoutsPage>(`/wallets/dailyPayout?${payoutParams(filters, { page, limit: PAGE_SIZE })}`, { signal }),
    placeholderData: keepPreviousData,
  });

export interface PaymentInput {
  userId: number;
  amount: number;
  typeIncome: 'dailyPayout' | 'wallet recharge';
  payoutId: number;
  /** One per distinct request (useIdempotencyKey): a double click, or a retry, pays once. */
  idempotencyKey: string;
}

export function usePayPayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ idempotencyKey, ...body }: PaymentInput) =>
      apiRequest<MoneyAnswer>('/transferAdmin', { method: 'POST', body, idempotencyKey }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['payouts'] }),
        queryClient.invalidateQueries({ queryKey: ['wallet'] }),
      ]),
  });
}
