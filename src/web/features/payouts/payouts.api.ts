import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { isoToWireDate, sortParts } from '../../../contract/common';
import { payout, payoutsApi, payoutsResponse, type BulkPayResult, type PAYOUT_SORTS, type TransferBody } from '../../../contract/payouts';
import { walletApi } from '../../../contract/wallet';
import { client } from '../../lib/api-client';

export const PAGE_SIZE = 25;

/** A payout as the screen shows it: spec §3 gives id, userName, amount, date and status only. */
export type PayoutRow = Omit<z.infer<typeof payout>, 'userId' | 'paidAt'> & { userId?: number; paidAt?: string | null };

export type PayoutSort = (typeof PAYOUT_SORTS)[number] | `-${(typeof PAYOUT_SORTS)[number]}`;

/** The applied filters and order; dates as the inputs give them (yyyy-mm-dd), empty = not set. */
export type PayoutFilters = {
  from: string;
  to: string;
  userName: string;
  status: '' | 'Success' | 'Failure' | 'Reversed';
  sort: PayoutSort;
};

/**
 * Spec §7: the list comes "as an array, or under data, or under payouts"; a server that answers the
 * whole list (no `total`) leaves paging, the status and name filters, the order and the cards to the
 * panel. Our server answers the contract's one shape; anything else is still an error.
 */
const payoutList = z.preprocess(
  (body) => {
    if (Array.isArray(body)) return { data: body };
    if (typeof body !== 'object' || body === null) return body;
    const { data, payouts: listed } = body as { data?: unknown; payouts?: unknown };
    const useListed = Array.isArray(listed) && (!Array.isArray(data) || (data.length === 0 && listed.length > 0));
    return useListed ? { ...body, data: listed } : body;
  },
  payoutsResponse
    .partial({ success: true, total: true, page: true, limit: true, totals: true, daily: true })
    .extend({ data: z.array(payout.partial({ userId: true, paidAt: true })) }),
);
type PayoutList = z.output<typeof payoutList>;

const payouts = client({ ...payoutsApi, list: { ...payoutsApi.list, responses: { 200: payoutList } } });

/** What the screen shows: one page of rows, the paging total, the four cards and the chart. */
export interface PayoutsView {
  data: PayoutRow[];
  total: number;
  totals: { count: number; amount: number; successful: number; failed: number; reversed?: number };
  daily: { date: string; successful: number; failed: number }[];
  /** The selection (filters, not page or order) the cards and chart describe: see `selectionOf`. */
  selection?: string;
}

/** The filters that choose the rows (not their page or order): the cards' and chart's identity. */
export const selectionOf = (f: PayoutFilters) => JSON.stringify([f.from, f.to, f.userName.trim(), f.status]);

/** The filters as the API takes them: wire dates, and nothing for a filter that is not set. */
function filterQuery(f: PayoutFilters) {
  return {
    fromDate: f.from ? isoToWireDate(f.from) : undefined,
    toDate: f.to ? isoToWireDate(f.to) : undefined,
    userName: f.userName.trim() || undefined,
    status: f.status || undefined,
  };
}

const COMPARE: Record<(typeof PAYOUT_SORTS)[number], (a: PayoutRow, b: PayoutRow) => number> = {
  date: (a, b) => a.date.localeCompare(b.date) || a.id - b.id,
  amount: (a, b) => a.amount - b.amount || a.id - b.id,
  status: (a, b) => a.status.localeCompare(b.status) || a.id - b.id,
  name: (a, b) => a.userName.toLowerCase().localeCompare(b.userName.toLowerCase()) || a.id - b.id,
};

/** The cards and chart of some rows (a whole-list answer). */
function summarise(rows: PayoutRow[]): Pick<PayoutsView, 'totals' | 'daily'> {
  const totals = { count: rows.length, amount: 0, successful: 0, failed: 0 };
  const days = new Map<string, { date: string; successful: number; failed: number }>();
  let paise = 0;
  for (const r of rows) {
    if (r.status === 'Reversed') continue;
    paise += Math.round(r.amount * 100);
    const day = days.get(r.date) ?? { date: r.date, successful: 0, failed: 0 };
    const outcome = r.status === 'Success' ? 'successful' : 'failed';
    totals[outcome] += 1;
    day[outcome] += 1;
    days.set(r.date, day);
  }
  totals.amount = paise / 100;
  return { totals, daily: [...days.values()].sort((a, b) => a.date.localeCompare(b.date)) };
}

/** An answer as the screen shows it; a whole list is filtered, sorted, summed and paged here. */
export function toPayoutsView(answer: PayoutList, filters: PayoutFilters, page: number): PayoutsView {
  if (answer.total !== undefined) {
    return { data: answer.data, total: answer.total, ...(answer.totals && answer.daily ? { totals: answer.totals, daily: answer.daily } : summarise(answer.data)) };
  }
  const name = filters.userName.trim().toLowerCase();
  const { key, desc } = sortParts(filters.sort);
  const rows = answer.data
    .filter((r) => (!filters.status || r.status === filters.status) && (!name || r.userName.toLowerCase().includes(name)))
    .sort((a, b) => (desc ? COMPARE[key](b, a) : COMPARE[key](a, b)));
  return { data: rows.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE), total: rows.length, ...summarise(rows) };
}

export const payoutsQuery = (filters: PayoutFilters, page: number) => {
  const input = { query: { ...filterQuery(filters), sort: filters.sort, page, limit: PAGE_SIZE } };
  return queryOptions({
    queryKey: payouts.list.key(input),
    queryFn: async ({ signal }): Promise<PayoutsView> => ({
      ...toPayoutsView(await payouts.list(input, { signal }), filters, page),
      selection: selectionOf(filters),
    }),
    placeholderData: keepPreviousData,
  });
};

/** The export's input: the applied filters, without paging. */
export const payoutsCsvInput = (filters: PayoutFilters) => ({ query: filterQuery(filters) });

export type PaymentInput = Required<TransferBody> & {
  /** One per distinct request (useIdempotencyKey): a double click, or a retry, pays once. */
  idempotencyKey: string;
};

export function usePayPayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ idempotencyKey, ...body }: PaymentInput) => payouts.transfer({ body }, { idempotencyKey }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: [payoutsApi.list.group] }),
        queryClient.invalidateQueries({ queryKey: [walletApi.history.group] }),
      ]),
  });
}

/** Bulk Pay Now: the ids of every Failure payout the applied filters match (the server caps them). */
export async function failedPayoutIds(filters: PayoutFilters): Promise<number[]> {
  const { status: _status, ...query } = filterQuery(filters);
  return (await payouts.failedIds({ query })).data;
}

/** One chunk of a bulk Pay Now; `key` is the chunk's Idempotency-Key, `bulkId` the bulk's (one approval request). */
export async function payBulkChunk(ids: number[], key: string, bulkId: string): Promise<BulkPayResult> {
  return (await payouts.payBulk({ body: { ids, bulkId } }, { idempotencyKey: key })).data;
}
