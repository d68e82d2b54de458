import { useState, type ReactNode } from 'react';
import { Button, Group, Loader, Stack, Text, TextInput, type MantineSpacing } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import type { CallInput, Endpoint } from '../../contract/endpoint';
import { ConfirmDialog } from './confirm-dialog';
import { CsvButton } from './csv-button';
import { DataTable, type Column, type TableSelect } from './data-table';
import { ErrorAlert } from './error-alert';
import { SuccessBanner } from './success-banner';
import type { Resource } from './use-resource';
import { PageTitle } from './page-title';

/** The export of the filtered list: the header's Download CSV (see `csvFile`). */
export interface CsvFile {
  endpoint: Endpoint;
  input?: unknown;
  filename: string;
  disabled?: boolean;
}

/** A list's CSV export, its input checked against the endpoint's. */
export const csvFile = <E extends Endpoint>(endpoint: E, input: CallInput<E> | undefined, filename: string, disabled?: boolean): CsvFile =>
  ({ endpoint, input, filename, disabled });

interface ListPageProps<Row, Id extends string | number> {
  /** The screen's title; none for a list that is one part of a screen (a tab). */
  title?: string;
  subtitle?: string;
  /** The create button ('Add Rank'), last in the header; opens the form; disabled while sample rows show. */
  addLabel?: string;
  /** Download CSV of the filtered list, first in the header; a failed download shows in the `failure` alert. */
  csv?: CsvFile;
  /** More header buttons, between Download CSV and the create button (Print, a screen's own). */
  actions?: ReactNode;
  resource: Resource<Row>;
  /** Under the success banner: notices that stay until dismissed (awaiting approval). */
  notices?: ReactNode;
  /** The failed load's alert when the list has nothing to show: each screen words it its own way (spec §8). */
  loadError?: ReactNode;
  /** More alerts above the filters, shown as the screen decides (a failed load with a retry). */
  alerts?: ReactNode;
  /** The filter bar above the table. */
  filters?: ReactNode;
  /**
   * Download CSV at the right end of the filter bar rather than in the header (a tab without a
   * title, a screen whose export sits by its search); a failed download shows under the bar, closable.
   */
  filterCsv?: CsvFile;
  /** Under the filters: why the list failed, in the screen's words; else a failed download's message. */
  failure?: string | null;
  /** Under the filters and their alert: totals cards (`SummaryCards`), a chart. */
  summary?: ReactNode;
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
  /** Above the table, under the filters: the bulk bar, an export button, a note on the columns. */
  toolbar?: ReactNode;
  /** Under the table: footnotes. */
  footer?: ReactNode;
  /** The space between the screen's parts; 'lg' by default. */
  gap?: MantineSpacing;
  /** More dialogs of the screen. */
  children?: ReactNode;
}

/**
 * A list screen: title with Download CSV, more buttons and the create button; success banner and
 * notices, load and action errors, filter bar (Download CSV at its end, if there), the failure alert, totals, toolbar, table with
 * pager and empty state, footnotes, the create/edit form and the delete confirmation.
 */
export function ListPage<Row, Id extends string | number = string | number>(props: ListPageProps<Row, Id>) {
  const { resource: r, confirm, paging, csv, filterCsv } = props;
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const [filterCsvError, setFilterCsvError] = useState<string | null>(null);
  const add = props.addLabel && (
    <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={r.openCreate} disabled={r.readOnly}>
      {props.addLabel}
    </Button>
  );
  return (
    <Stack gap={props.gap ?? 'lg'}>
      {props.title !== undefined && (
        <Group justify="space-between" align={props.subtitle ? 'flex-start' : 'center'}>
          <PageTitle title={props.title} subtitle={props.subtitle} />
          {csv || props.actions ? (
            <Group gap="sm" className="no-print">
              {csv && <CsvButton endpoint={csv.endpoint} input={csv.input} filename={csv.filename} disabled={csv.disabled} onError={setDownloadError} />}
              {props.actions}
              {add}
            </Group>
          ) : (
            add
          )}
        </Group>
      )}
      <SuccessBanner message={r.success} />
      {props.notices}
      {r.failed && props.loadError}
      {props.alerts}
      <ErrorAlert error={r.actionError} onClose={() => r.fail(null)} />
      {filterCsv ? (
        <Group justify="space-between" align="flex-end">
          {props.filters}
          <CsvButton endpoint={filterCsv.endpoint} input={filterCsv.input} filename={filterCsv.filename} disabled={filterCsv.disabled} onError={setFilterCsvError} />
        </Group>
      ) : (
        props.filters
      )}
      <ErrorAlert error={filterCsvError} onClose={() => setFilterCsvError(null)} />
      <ErrorAlert error={props.failure || downloadError} withIcon />
      {props.summary}
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
      {props.footer}
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

interface ListEmptyProps {
  /** Filters are applied: their empty result says so ('No users found') and suggests changing them. */
  filtered: boolean;
  found: string;
  /** Nothing at all yet ('No users available'), and the button that adds the first. */
  none: string;
  first: { label: string; onClick: () => void };
}

/** A list's empty state: nothing matches the filters, or nothing exists yet (and how to add the first). */
export function ListEmpty({ filtered, found, none, first }: ListEmptyProps) {
  return filtered ? (
    <>
      <Text fw={500}>{found}</Text>
      <Text size="sm" c="dimmed">
        Try adjusting your search filters
      </Text>
    </>
  ) : (
    <>
      <Text fw={500}>{none}</Text>
      <Button variant="light" onClick={first.onClick}>
        {first.label}
      </Button>
    </>
  );
}
