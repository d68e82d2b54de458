import type { ReactNode } from 'react';
import { Checkbox, Group, Pagination, Paper, ScrollArea, Skeleton, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import { MAX_PAGED_ROWS, sortParts } from '../../contract/common';
import { formatCount } from '../lib/format';
import type { Selection } from './use-selection';

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

/** Rows an operator can pick for a bulk action: a checkbox per row and one for the page. */
export interface TableSelect<Row, Id extends string | number = string | number> {
  selection: Selection<Id>;
  rowId: (row: Row) => Id;
  /** Names the row for a screen reader: "Select payout of Asha Rao". */
  rowLabel: (row: Row) => string;
  /** A row that cannot take the action (already paid, staff…) has no checkbox. */
  selectable?: (row: Row) => boolean;
}

interface DataTableProps<Row, Id extends string | number> {
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
  /** Bulk actions: a checkbox column (see `use-selection.ts` and `bulk.tsx`). */
  select?: TableSelect<Row, Id>;
}

/**
 * The one table of the panel: sortable headers, placeholder rows while loading, an empty state,
 * server-side pages.
 */
export function DataTable<Row, Id extends string | number = string | number>({
  caption, columns, rows, rowKey, loading, empty, paging, sort, select,
}: DataTableProps<Row, Id>) {
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
              {select && (
                <Table.Th scope="col" style={{ width: 40 }}>
                  <Checkbox
                    aria-label={`Select every row on this page of ${caption}`}
                    checked={select.selection.pageState === 'all'}
                    indeterminate={select.selection.pageState === 'some'}
                    disabled={loading || !rows?.some((row) => select.selectable?.(row) ?? true)}
                    onChange={select.selection.togglePage}
                  />
                </Table.Th>
              )}
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
                    {select && <Table.Td />}
                    {columns.map((c) => (
                      <Table.Td key={c.header}>
                        <Skeleton height={14} radius="sm" />
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))
              : rows?.map((row, i) => (
                  <Table.Tr key={rowKey(row)} aria-selected={select ? select.selection.isSelected(select.rowId(row)) : undefined}>
                    {select && (
                      <Table.Td>
                        {(select.selectable?.(row) ?? true) && (
                          <Checkbox
                            aria-label={select.rowLabel(row)}
                            checked={select.selection.isSelected(select.rowId(row))}
                            onChange={() => select.selection.toggle(select.rowId(row))}
                          />
                        )}
                      </Table.Td>
                    )}
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
