import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { booksApi, type AccountStatement, type BookAccountCode, type TransferDetail, type TrialBalance } from '../../../contract/books';
import { isoToWireDate } from '../../../contract/common';
import { client } from '../../lib/api-client';

const books = client(booksApi);

export const STATEMENT_PAGE_SIZE = 25;
export const TRANSFER_LINES_PAGE_SIZE = 20;

/** The screen's view as the address keeps it: the trial balance's day, the account open and its period (yyyy-mm-dd). */
export const BOOKS_VIEW = { date: '', account: '', from: '', to: '' };
export type BooksView = typeof BOOKS_VIEW;

const dateInput = (date: string) => (date ? { date: isoToWireDate(date) } : {});

export const trialBalanceQuery = (date: string) => {
  const input = { query: dateInput(date) };
  return queryOptions({
    queryKey: books.trialBalance.key(input),
    queryFn: async ({ signal }): Promise<TrialBalance> => (await books.trialBalance(input, { signal })).data,
    placeholderData: keepPreviousData,
  });
};

export const trialBalanceCsv = { endpoint: booksApi.trialBalanceCsv, input: (date: string) => ({ query: dateInput(date) }) };

const periodInput = (from: string, to: string) => ({ fromDate: isoToWireDate(from), toDate: isoToWireDate(to) });

export const statementQuery = (code: BookAccountCode, from: string, to: string, page: number) => {
  const input = { params: { code }, query: { ...periodInput(from, to), page, limit: STATEMENT_PAGE_SIZE } };
  return queryOptions({
    queryKey: books.statement.key(input),
    queryFn: async ({ signal }): Promise<AccountStatement> => (await books.statement(input, { signal })).data,
    placeholderData: keepPreviousData,
  });
};

export const statementCsv = {
  endpoint: booksApi.statementCsv,
  input: (code: BookAccountCode, from: string, to: string) => ({ params: { code }, query: periodInput(from, to) }),
};

export const transferQuery = (id: number, page: number) => {
  const input = { params: { id }, query: { page, limit: TRANSFER_LINES_PAGE_SIZE } };
  return queryOptions({
    queryKey: books.transfer.key(input),
    queryFn: async ({ signal }): Promise<TransferDetail> => (await books.transfer(input, { signal })).data,
    placeholderData: keepPreviousData,
  });
};
