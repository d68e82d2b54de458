import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApprovalStatus, ApprovalsPage } from '../../../contract/approvals';
import { apiRequest } from '../../lib/api-client';

export const PAGE_SIZE = 25;

export const approvalsQuery = (status: ApprovalStatus, page: number) =>
  queryOptions({
    queryKey: ['approvals', status, page],
    queryFn: ({ signal }) => apiRequest<ApprovalsPage>(`/approvals?status=${status}&page=${page}&limit=${PAGE_SIZE}`, { signal }),
    placeholderData: keepPreviousData,
  });

export interface Decision {
  id: number;
  action: 'approve' | 'reject';
  remarks?: string;
  idempotencyKey: string;
}

/** Approve or reject; either changes the queue and (when approved) balances, payouts and withdrawals. */
export function useDecideApproval() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action, remarks, idempotencyKey }: Decision) =>
      apiRequest<{ success: true; message: string }>(`/approvals/${id}/${action}`, {
        method: 'POST',
        body: remarks === undefined ? {} : { remarks },
        idempotencyKey,
      }),
    onSettled: () => Promise.all(['approvals', 'wallet', 'payouts'].map((key) => queryClient.invalidateQueries({ queryKey: [key] }))),
  });
}
