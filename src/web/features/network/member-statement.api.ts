import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { memberStatementApi, type MemberStatement } from '../../../contract/books';
import { isoToWireDate } from '../../../contract/common';
import { client } from '../../lib/api-client';

const wallet = client(memberStatementApi);

export const STATEMENT_PAGE_SIZE = 25;
/** The most lines a printed statement carries (the server's largest page); more: narrow the period or download the CSV. */
export const PRINTED_STATEMENT_LIMIT = 500;

const period = (from: string, to: string) => ({ fromDate: isoToWireDate(from), toDate: isoToWireDate(to) });

/** The member's statement over a period (yyyy-mm-dd India days), a page of lines oldest first (the wallet's query group). */
export const memberStatementQuery = (userId: number, from: string, to: string, page: number, limit = STATEMENT_PAGE_SIZE) => {
  const input = { params: { userId }, query: { ...period(from, to), page, limit } };
  return queryOptions({
    queryKey: wallet.memberStatement.key(input),
    queryFn: async ({ signal }): Promise<MemberStatement> => (await wallet.memberStatement(input, { signal })).data,
    placeholderData: keepPreviousData,
  });
};

export const statementCsvEndpoint = memberStatementApi.memberStatementCsv;
export const statementCsvInput = (userId: number, from: string, to: string) => ({ params: { userId }, query: period(from, to) });
