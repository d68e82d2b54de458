import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { approvalsApi, awaitingApprovalResponse } from '../../../contract/approvals';
import { run, runsApi, type RunBody, type RunsQuery, type RunStatus } from '../../../contract/income-runs';
import { payoutsApi } from '../../../contract/payouts';
import { walletApi } from '../../../contract/wallet';
import { client } from '../../lib/api-client';

export const PAGE_SIZE = 25;

/** Start answers 201 (a new run) or 200 (the period's existing run): the status is told apart here. */
const startAnswer = (created: boolean) =>
  z.object({ success: z.literal(true), message: z.string(), data: run }).transform((a) => ({ ...a, created, filed: false as const }));
/** 202: a reversed period's re-run, filed for a second operator (issue 22). */
const filedAnswer = awaitingApprovalResponse.transform((a) => ({ ...a, created: false, filed: true as const }));

const runs = client({
  ...runsApi,
  start: { ...runsApi.start, responses: { 201: startAnswer(true), 200: startAnswer(false), 202: filedAnswer } },
});

/** A run still at work: the screens poll it every 2 s until none is. */
export const isActive = (status: RunStatus) => status === 'running' || status === 'reversing';
export const POLL_MS = 2000;

/** refetchInterval of a list or a run: every 2 s while a run shown is running or reversing, else off. */
export function pollWhileActive(data: { data: { status: RunStatus } | { status: RunStatus }[] } | undefined): number | false {
  if (!data) return false;
  const shown = Array.isArray(data.data) ? data.data : [data.data];
  return shown.some((r) => isActive(r.status)) ? POLL_MS : false;
}

export type RunSort = NonNullable<RunsQuery['sort']>;

/** The list's filters as the address keeps them ('' = not set). */
export interface RunFilters {
  kind: '' | NonNullable<RunsQuery['kind']>;
  status: '' | RunStatus;
  sort: RunSort;
}

export const runsQuery = (filters: RunFilters, page: number) => {
  const input = { query: { kind: filters.kind || undefined, status: filters.status || undefined, sort: filters.sort, page, limit: PAGE_SIZE } };
  return queryOptions({
    queryKey: runs.list.key(input),
    queryFn: ({ signal }) => runs.list(input, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => pollWhileActive(query.state.data),
  });
};

export const runDetailQuery = (id: number) =>
  queryOptions({
    queryKey: runs.get.key({ params: { id } }),
    queryFn: ({ signal }) => runs.get({ params: { id } }, { signal }),
    refetchInterval: (query) => pollWhileActive(query.state.data),
  });

/** A run's lines per member, one page (issue 24). */
export const LINES_PAGE_SIZE = 20;
export const runLinesQuery = (id: number, page: number) => {
  const input = { params: { id }, query: { page, limit: LINES_PAGE_SIZE } };
  return queryOptions({
    queryKey: runs.lines.key(input),
    queryFn: ({ signal }) => runs.lines(input, { signal }),
    placeholderData: keepPreviousData,
  });
};

/** What reversing the run would do now (the dialog states it before it is confirmed). */
export const reversalPreviewQuery = (id: number) =>
  queryOptions({
    queryKey: runs.reversalPreview.key({ params: { id } }),
    queryFn: ({ signal }) => runs.reversalPreview({ params: { id } }, { signal }),
    staleTime: 0,
    gcTime: 0,
  });

/** The runs list export's input: the list's filters. */
export const runsCsvInput = (filters: RunFilters) => ({ query: { kind: filters.kind || undefined, status: filters.status || undefined } });

// The member page (network) mounts the recovery notice through this file; the notice reads its own query.
export { RecoveryOwed } from './recovery-owed';

/** A preview computes the period's counts and totals without writing anything. */
export function usePreviewRun() {
  return useMutation({ mutationFn: (body: RunBody) => runs.preview({ body }) });
}

/** What a run touched: its list, the payouts, balances and (a reversal above the threshold) the approvals queue. */
const TOUCHED = [runsApi.list.group, payoutsApi.list.group, walletApi.history.group, approvalsApi.list.group];

export function useStartRun() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: RunBody; idempotencyKey: string }) => runs.start({ body }, { idempotencyKey }),
    onSuccess: () => Promise.all(TOUCHED.map((key) => queryClient.invalidateQueries({ queryKey: [key] }))),
  });
}

export interface ReverseInput {
  id: number;
  remarks: string;
  /** One per distinct request (useIdempotencyKey): a double click reverses once. */
  idempotencyKey: string;
}

export function useReverseRun() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, remarks, idempotencyKey }: ReverseInput) => runs.reverse({ params: { id }, body: { remarks } }, { idempotencyKey }),
    onSettled: () => Promise.all(TOUCHED.map((key) => queryClient.invalidateQueries({ queryKey: [key] }))),
  });
}
