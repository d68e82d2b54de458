import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { isoToWireDate } from '../../../contract/common';
import { payoutsApi, type TransferBody } from '../../../contract/payouts';
import { walletApi } from '../../../contract/wallet';
import { client } from '../../lib/api-client';

export const PAGE_SIZE = 25;

const payouts = client(payoutsApi);

/** The applied filters; dates as the inputs give them (yyyy-mm-dd), empty = not set. */
export interface PayoutFilters {
  from: string;
  to: string;
  userName: string;
  status: '' | 'Success' | 'Failure';
}

/** The filters as the API takes them: wire dates, and nothing for a filter that is not set. */
function filterQuery(f: PayoutFilters) {
  return {
    fromDate: f.from ? isoToWireDate(f.from) : undefined,
    toDate: f.to ? isoToWireDate(f.to) : undefined,
    userName: f.userName.trim() || undefined,
    status: f.status || undefined,
  };
}

export const payoutsQuery = (filters: PayoutFilters, page: number) => {
  const input = { query: { ...filterQuery(filters), page, limit: PAGE_SIZE } };
  return queryOptions({
    queryKey: payouts.list.key(input),
    queryFn: ({ signal }) => payouts.list(input, { signal }),
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
