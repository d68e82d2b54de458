import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { approvalsApi } from '../../../contract/approvals';
import { taxApi, type MemberPan, type PanBody } from '../../../contract/tax';
import { client } from '../../lib/api-client';

const tax = client(taxApi);

export const TDS_PAGE_SIZE = 25;

/** A member's PAN (masked) and a change waiting for approval. */
export const memberPanQuery = (userId: number) =>
  queryOptions({
    queryKey: tax.pan.key({ params: { userId } }),
    queryFn: async ({ signal }): Promise<MemberPan> => (await tax.pan({ params: { userId } }, { signal })).data,
  });

/** Files a PAN for a second operator (always 202); the member's PAN card and the approvals refresh. */
export function useSetPan(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PanBody) => tax.setPan({ params: { userId }, body }),
    onSuccess: () =>
      Promise.all([taxApi.pan.group, approvalsApi.list.group].map((group) => queryClient.invalidateQueries({ queryKey: [group] }))),
  });
}

export const tdsReportQuery = (year: number, quarter: number, page: number) => {
  const input = { query: { year, quarter, page, limit: TDS_PAGE_SIZE } };
  return queryOptions({
    queryKey: tax.tds.key(input),
    queryFn: ({ signal }) => tax.tds(input, { signal }),
    placeholderData: keepPreviousData,
  });
};

export const monthlyStatementQuery = (month: string) => {
  const input = { query: { month } };
  return queryOptions({
    queryKey: tax.monthly.key(input),
    queryFn: async ({ signal }) => (await tax.monthly(input, { signal })).data,
    placeholderData: keepPreviousData,
  });
};
