import type { ReactNode } from 'react';
import { Button, Group, Loader, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { ConfirmDialog } from './confirm-dialog';
import { DataTable, type Column, type TableSelect } from './data-table';
import { ErrorAlert } from './error-alert';
import { SuccessBanner } from './success-banner';
import type { Resource } from './use-resource';

interface ListPageProps<Row, Id extends string | number> {
  title: string;
  subtitle?: string;
  /** The create button ('Add Rank'); disabled while sample rows show. */
  addLabel?: string;
  resource: Resource<Row>;
  /** The failed load's alert: each screen words it its own way (spec §8). */
  loadError?: ReactNode;
  /** The filter bar above the table. */
  filters?: ReactNode;
  /** The spec's text while the first load runs ('Loading roles...'). */
  loadingText?: string;
  caption: string;
  columns: Column<Row>[];
  rowKey: (row: Row) => string | number;
  /** Rows to show instead of the resource's (a pinned new row). */
  rows?: Row[];
  empty: ReactNode;
  paging?: { limit: number; total: number };
  /** The delete confirmation of a row. */
  confirm?: { title: string; message: (row: Row) => string };
  /** The create/edit form (editing null: a new record), mounted while open. */
  form?: (editing: Row | null) => ReactNode;
  /** Bulk actions: the table's checkbox column; put a `<BulkBar>` in `toolbar`. */
  select?: TableSelect<Row, Id>;
  /** Above the table, under the filters: the bulk bar, an export button. */
  toolbar?: ReactNode;
  /** More dialogs of the screen. */
  children?: ReactNode;
}

/**
 * A catalogue screen: title and create button, success banner, load and action errors, filter
 * bar, table with pager and empty state, the create/edit form and the delete confirmation.
 */
export function ListPage<Row, Id extends string | number = string | number>(props: ListPageProps<Row, Id>) {
  const { resource: r, confirm, paging } = props;
  return (
    <Stack gap="lg">
      <Group justify="space-between" align={props.subtitle ? 'flex-start' : 'center'}>
        <div>
          <Title order={1} size="h2">
            {props.title}
          </Title>
          {props.subtitle && <Text c="dimmed">{props.subtitle}</Text>}
        </div>
        {props.addLabel && (
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={r.openCreate} disabled={r.readOnly}>
            {props.addLabel}
          </Button>
        )}
      </Group>
      <SuccessBanner message={r.success} />
      {r.failed && props.loadError}
      <ErrorAlert error={r.actionError} onClose={() => r.fail(null)} />
      {props.filters}
      {props.toolbar}
      {props.loadingText && r.list.isPending && (
        <Group gap="xs" role="status">
          <Loader size="xs" />
          <Text size="sm" c="dimmed">
            {props.loadingText}
          </Text>
        </Group>
      )}
      <DataTable
        caption={props.caption}
        columns={props.columns}
        rows={props.rows ?? r.rows}
        rowKey={props.rowKey}
        loading={r.loading}
        sort={r.sort}
        select={props.select}
        empty={props.empty}
        paging={paging ? { page: r.page, limit: paging.limit, total: paging.total, onPage: r.setPage } : undefined}
      />
      {r.form && props.form?.(r.form.editing)}
      {confirm && (
        <ConfirmDialog
          opened={r.deleting !== null}
          title={confirm.title}
          message={r.deleting ? confirm.message(r.deleting) : ''}
          busy={r.removing}
          onConfirm={r.confirmDelete}
          onCancel={r.cancelDelete}
        />
      )}
      {props.children}
    </Stack>
  );
}

interface ListSearchProps {
  /** The spec's placeholder, e.g. 'Search ranks...'. */
  placeholder: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
}

/** The text search of a list's filter bar. */
export function ListSearch({ placeholder, label, value, onChange }: ListSearchProps) {
  return (
    <TextInput
      placeholder={placeholder}
      aria-label={label}
      leftSection={<IconSearch size={16} aria-hidden />}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      w={{ base: '100%', sm: 320 }}
    />
  );
}
