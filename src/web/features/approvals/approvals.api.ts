import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { approvalsApi, type ApprovalsQuery, type ApprovalStatus } from '../../../contract/approvals';
import { payoutsApi } from '../../../contract/payouts';
import { walletApi } from '../../../contract/wallet';
import { client } from '../../lib/api-client';

export const PAGE_SIZE = 25;

const approvals = client(approvalsApi);

export const approvalsQuery = (status: ApprovalStatus, page: number, sort?: ApprovalsQuery['sort']) => {
  const input = { query: { status, page, limit: PAGE_SIZE, sort } };
  return queryOptions({
    queryKey: approvals.list.key(input),
    queryFn: ({ signal }) => approvals.list(input, { signal }),
    placeholderData: keepPreviousData,
  });
};

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
      action === 'approve'
        ? approvals.approve({ params: { id }, body: remarks === undefined ? {} : { remarks } }, { idempotencyKey })
        : approvals.reject({ params: { id }, body: { remarks: remarks ?? '' } }, { idempotencyKey }),
    onSettled: () =>
      Promise.all([approvalsApi.list.group, walletApi.history.group, payoutsApi.list.group].map((key) => queryClient.invalidateQueries({ queryKey: [key] }))),
  });
}
