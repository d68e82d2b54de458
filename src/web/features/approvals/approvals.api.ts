import { keepPreviousData, queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { approvalsApi, BULK_IDS_CAP, type ApprovalsQuery, type ApprovalStatus, type BulkDecisionResult } from '../../../contract/approvals';
import { payoutsApi } from '../../../contract/payouts';
import { walletApi } from '../../../contract/wallet';
import { ApiError, client } from '../../lib/api-client';
import { formatCount } from '../../lib/format';

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
    onSettled: () => afterDecisions(queryClient),
  });
}

/** A decision changes the queue, the sidebar's count (same group) and, when approved, balances and payouts. */
export function afterDecisions(queryClient: QueryClient) {
  return Promise.all([approvalsApi.list.group, walletApi.history.group, payoutsApi.list.group].map((key) => queryClient.invalidateQueries({ queryKey: [key] })));
}

/** "My requests" (issue 24): the signed-in operator's own requests, any permission. */
export const myRequestsQuery = (status: ApprovalStatus | undefined, page: number) => {
  const input = { query: { status, page, limit: PAGE_SIZE } };
  return queryOptions({
    queryKey: approvals.mine.key(input),
    queryFn: ({ signal }) => approvals.mine(input, { signal }),
    placeholderData: keepPreviousData,
  });
};

/** How often the sidebar asks how many requests wait (besides after every decision). */
export const PENDING_COUNT_POLL_MS = 60_000;

/** The sidebar's badge: requests waiting for this operator's decision (money_approve only). */
export const pendingCountQuery = () =>
  queryOptions({
    queryKey: approvals.pendingCount.key(),
    queryFn: async ({ signal }) => (await approvals.pendingCount(undefined, { signal })).data.count,
    refetchInterval: PENDING_COUNT_POLL_MS,
  });

/** "Select all matching": every request of the status, up to BULK_IDS_CAP. */
export async function allIdsOf(status: ApprovalStatus): Promise<number[]> {
  const answer = await approvals.ids({ query: { status } });
  if (answer.capped) {
    throw new ApiError(413, `More than ${formatCount(BULK_IDS_CAP)} requests match: decide them in smaller groups`, true);
  }
  return answer.data;
}

/** One chunk of a bulk decision; `key` makes a retried chunk replay its first answer. */
export async function decideChunk(
  action: 'approve' | 'reject', ids: number[], remarks: string | undefined, key: string,
): Promise<BulkDecisionResult> {
  const body = action === 'approve' ? { action, ids, ...(remarks ? { remarks } : {}) } : { action, ids, remarks: remarks ?? '' };
  return (await approvals.bulk({ body }, { idempotencyKey: key })).data;
}
