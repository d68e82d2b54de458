import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { bankTransfersApi, type BankBatchStatus, type BankLineStatus } from '../../../contract/bank-transfers';
import { client } from '../../lib/api-client';

const bank = client(bankTransfersApi);
export { bankTransfersApi };
export { BankLineBadge } from './line-badge';

export const BATCHES_PAGE_SIZE = 20;
export const LINES_PAGE_SIZE = 25;

export const gatherableQuery = () =>
  queryOptions({ queryKey: bank.gatherable.key(), queryFn: async ({ signal }) => (await bank.gatherable(undefined, { signal })).data });

export const batchesQuery = (page: number, status?: BankBatchStatus) => {
  const input = { query: { page, limit: BATCHES_PAGE_SIZE, status } };
  return queryOptions({ queryKey: bank.batches.key(input), queryFn: ({ signal }) => bank.batches(input, { signal }), placeholderData: keepPreviousData });
};

export const batchQuery = (id: number) => {
  const input = { params: { id } };
  return queryOptions({ queryKey: bank.batch.key(input), queryFn: async ({ signal }) => (await bank.batch(input, { signal })).data });
};

export const linesQuery = (id: number, page: number, status?: BankLineStatus) => {
  const input = { params: { id }, query: { page, limit: LINES_PAGE_SIZE, status } };
  return queryOptions({ queryKey: bank.lines.key(input), queryFn: ({ signal }) => bank.lines(input, { signal }), placeholderData: keepPreviousData });
};

export const inTransitQuery = (page: number) => {
  const input = { query: { page, limit: LINES_PAGE_SIZE } };
  return queryOptions({ queryKey: bank.inTransit.key(input), queryFn: ({ signal }) => bank.inTransit(input, { signal }), placeholderData: keepPreviousData });
};

/** A member's transfers to the bank, newest first, and what waits to be gathered (the member page, wallet_view). */
export const memberBankLinesQuery = (userId: number, page: number, limit = 10) => {
  const input = { params: { userId }, query: { page, limit } };
  return queryOptions({ queryKey: bank.memberLines.key(input), queryFn: ({ signal }) => bank.memberLines(input, { signal }), placeholderData: keepPreviousData });
};

/** The lines a bank_batch_release request sends (the checker's view, money_approve). */
export const releaseLinesQuery = (approvalId: number, page: number) => {
  const input = { params: { id: approvalId }, query: { page, limit: LINES_PAGE_SIZE } };
  return queryOptions({ queryKey: bank.releaseLines.key(input), queryFn: ({ signal }) => bank.releaseLines(input, { signal }), placeholderData: keepPreviousData });
};

/** The lines a bank_returns request holds (the checker's view, money_approve). */
export const returnLinesQuery = (approvalId: number, page: number) => {
  const input = { params: { id: approvalId }, query: { page, limit: LINES_PAGE_SIZE } };
  return queryOptions({ queryKey: bank.returnLines.key(input), queryFn: ({ signal }) => bank.returnLines(input, { signal }), placeholderData: keepPreviousData });
};

function useRefresh() {
  const queryClient = useQueryClient();
  return () => Promise.all([
    queryClient.invalidateQueries({ queryKey: [bankTransfersApi.batches.group] }),
    // A release is decided on the Approvals screen; its queue counts this request too.
    queryClient.invalidateQueries({ queryKey: ['approvals'] }),
  ]);
}

export function useGather() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: () => bank.gather({ body: {} }), onSuccess: refresh });
}

export function useRequestRelease() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, key }: { id: number; key: string }) => bank.release({ params: { id } }, { idempotencyKey: key }),
    onSuccess: refresh,
  });
}

export function useCancelBatch() {
  const refresh = useRefresh();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => bank.cancel({ params: { id } }),
    onSuccess: () => Promise.all([refresh(), queryClient.invalidateQueries({ queryKey: bank.gatherable.key() })]),
  });
}

export function useImportResponse() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return bank.importResponse({ body: form });
    },
    onSuccess: refresh,
  });
}
