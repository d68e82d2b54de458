import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { DataTable, type Column } from './data-table';
import { ErrorAlert } from './error-alert';

interface QueryTableProps<Row> {
  /** One page of a list the server pages (`{ data, total }`), page state kept by the screen. */
  query: UseQueryResult<{ data: Row[]; total: number }>;
  page: number;
  onPage: (page: number) => void;
  limit: number;
  /** Placeholder rows; by default while the page loads or another page is on its way. */
  loading?: boolean;
  caption: string;
  columns: Column<Row>[];
  rowKey: (row: Row) => string | number;
  empty: ReactNode;
}

/**
 * A paged list inside a screen (a tab, a detail): its failed load with Retry, then the table;
 * another page shows placeholder rows, never the previous page's rows.
 */
export function QueryTable<Row>({ query, page, onPage, limit, loading, ...table }: QueryTableProps<Row>) {
  return (
    <>
      {query.error && <ErrorAlert error={query.error} onRetry={() => query.refetch()} />}
      <DataTable
        {...table}
        rows={query.isPlaceholderData ? undefined : query.data?.data}
        loading={loading ?? (query.isPending || query.isPlaceholderData)}
        paging={query.data ? { page, limit, total: query.data.total, onPage } : undefined}
      />
    </>
  );
}
