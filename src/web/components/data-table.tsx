import type { ReactNode } from 'react';
import { Group, Pagination, Paper, ScrollArea, Skeleton, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import { MAX_PAGED_ROWS, sortParts } from '../../contract/common';
import { formatCount } from '../lib/format';

export interface Column<Row> {
  /** The header text, word for word from the spec. */
  header: string;
  cell: (row: Row, index: number) => ReactNode;
  width?: number | string;
  /** The list's sort key for this column (contract `sortParam`): its header then sorts the list. */
  sort?: string;
}

/** A list's order (`fullName`, `-fullName`) and how to change it. */
export interface TableSort {
  value: string;
  onChange: (value: string) => void;
}

interface DataTableProps<Row> {
  /** Read by screen readers as the table's name. */
  caption: string;
  columns: Column<Row>[];
  rows: Row[] | undefined;
  rowKey: (row: Row) => string | number;
  /** Rows are loading (first load, or another page/filter/order): placeholder rows are shown, never the previous answer's. */
  loading?: boolean;
  sort?: TableSort;
  /** What an empty result shows: the spec's empty-state text, and optionally an action. */
  empty: ReactNode;
  /** Server-side paging: shown when `total` exceeds one page. */
  paging?: { page: number; limit: number; total: number; onPage: (page: number) => void };
}

/**
 * The one table of the panel: sortable headers, placeholder rows while loading, an empty state,
 * server-side pages.
 */
export function DataTable<Row>({ caption, columns, rows, rowKey, loading, empty, paging, sort }: DataTableProps<Row>) {
  // The server pages through the first MAX_PAGED_ROWS rows of a list only (bounded work per request).
  const allPages = paging ? Math.max(1, Math.ceil(paging.total / paging.limit)) : 1;
  const pages = paging ? Math.min(allPages, Math.max(1, Math.floor(MAX_PAGED_ROWS / paging.limit))) : 1;
  return (
    <Paper withBorder radius="md">
      <ScrollArea>
        <Table striped highlightOnHover verticalSpacing="sm" aria-busy={loading || undefined}>
          <caption className="visually-hidden">{caption}</caption>
          <Table.Thead>
            <Table.Tr>
              {columns.map((c) =>
                c.sort && sort ? (
                  <SortableHeader key={c.header} column={c} sort={sort} />
                ) : (
                  <Table.Th key={c.header} style={{ width: c.width }} scope="col">
                    {c.header}
                  </Table.Th>
                ),
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {loading
              ? Array.from({ length: Math.min(rows?.length || 5, 10) }, (_, i) => (
                  <Table.Tr key={`skeleton-${i}`}>
                    {columns.map((c) => (
                      <Table.Td key={c.header}>
                        <Skeleton height={14} radius="sm" />
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))
              : rows?.map((row, i) => (
                  <Table.Tr key={rowKey(row)}>
                    {columns.map((c) => (
                      <Table.Td key={c.header}>{c.cell(row, i)}</Table.Td>
                    ))}
                  </Table.Tr>
                ))}
          </Table.Tbody>
        </Table>
        {!loading && rows?.length === 0 && (
          <Stack align="center" gap={4} py="xl">
            {empty}
          </Stack>
        )}
      </ScrollArea>
      {paging && paging.total > 0 && (
        <Group justify="space-between" p="sm">
          <Text size="sm" c="dimmed">
            {formatCount((paging.page - 1) * paging.limit + 1)}–{formatCount(Math.min(paging.page * paging.limit, paging.total))} of{' '}
            {formatCount(paging.total)}
            {pages < allPages && ` · only the first ${formatCount(pages * paging.limit)} can be paged through: narrow the filters or export to CSV`}
          </Text>
          {pages > 1 && (
            <Pagination
              total={pages}
              value={paging.page}
              onChange={paging.onPage}
              size="sm"
              getControlProps={(control) => ({ 'aria-label': `${control} page` })}
              getItemProps={(page) => ({ 'aria-label': `Page ${page}` })}
            />
          )}
        </Group>
      )}
    </Paper>
  );
}

/** A header that sorts its column: ascending first, then descending; `aria-sort` says which. */
function SortableHeader<Row>({ column, sort }: { column: Column<Row>; sort: TableSort }) {
  const { key, desc } = sortParts(sort.value);
  const active = key === column.sort;
  const Icon = !active ? IconArrowsSort : desc ? IconArrowDown : IconArrowUp;
  return (
    <Table.Th style={{ width: column.width }} scope="col" aria-sort={active ? (desc ? 'descending' : 'ascending') : 'none'}>
      <UnstyledButton
        onClick={() => sort.onChange(active && !desc ? `-${column.sort}` : column.sort!)}
        fw={700}
        fz="sm"
        style={{ display: 'inline-flex', alignItems: 'center', gap: 4, whiteSpace: 'nowrap' }}
      >
        {column.header}
        <Icon size={14} aria-hidden style={{ opacity: active ? 1 : 0.4 }} />
      </UnstyledButton>
    </Table.Th>
  );
}
