import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Select, Text, TextInput } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import { AUDIT_ENTITIES, AUDIT_SORTS, auditApi, type AuditEntry, type AuditQuery } from '../../../contract/audit';
import { isoToWireDate } from '../../../contract/common';
import type { Column } from '../../components/data-table';
import { ListPage } from '../../components/list-page';
import { RowAction } from '../../components/row-actions';
import { StatusBadge } from '../../components/status-badge';
import { TruncatedText } from '../../components/truncated-text';
import { useResource } from '../../components/use-resource';
import { errorMessage } from '../../lib/api-client';
import { formatCount, formatDateTime } from '../../lib/format';
import { CsvButton } from '../../components/csv-button';
import { auditQueryOptions } from './audit.api';
import { AuditDetails } from './audit-details';

const LIMIT = 25;
/** The filters (dates as the date inputs give them, yyyy-mm-dd) and the order, kept in the address. */
const URL_FILTERS = { actor: '', entity: '', action: '', from: '', to: '', sort: '-createdAt' };
type Filters = typeof URL_FILTERS;
const EMPTY_FORM = { actor: '', entity: '', action: '', from: '', to: '' };
type AuditSort = NonNullable<AuditQuery['sort']>;
const SORTS = new Set<string>(AUDIT_SORTS.flatMap((k) => [k, `-${k}`]));
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The list's query from the address: a hand-edited value the server would refuse is left out. */
function toQuery(f: Filters, page: number): AuditQuery {
  return {
    page,
    limit: LIMIT,
    actor: f.actor || undefined,
    entity: f.entity || undefined,
    action: f.action || undefined,
    fromDate: ISO_DAY.test(f.from) ? isoToWireDate(f.from) : undefined,
    toDate: ISO_DAY.test(f.to) ? isoToWireDate(f.to) : undefined,
    sort: f.sort as AuditSort,
  };
}

/** The address's order, an unknown one read as the newest first. */
const read = (f: Filters): Filters => (SORTS.has(f.sort) ? f : { ...f, sort: URL_FILTERS.sort });

export default function AuditPage() {
  const list = useResource({ filters: URL_FILTERS, read, query: (f, page) => auditQueryOptions(toQuery(f, page)), rowsOf: (d) => d.data, onFailure: 'blank' });
  const { filters, page, list: query } = list;
  const [form, setForm] = useState(() => formOf(filters));
  // Back/Forward or a link brings other filters: the fields follow them.
  const [shown, setShown] = useState(filters);
  if (shown !== filters) {
    setShown(filters);
    setForm(formOf(filters));
  }
  const [selected, setSelected] = useState<AuditEntry | null>(null);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const input = toQuery(filters, page);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    list.setFilters(form);
  };
  const clear = () => {
    setForm(EMPTY_FORM);
    list.setFilters(EMPTY_FORM);
  };
  const set = (key: keyof typeof EMPTY_FORM) => (value: string) => setForm((f) => ({ ...f, [key]: value }));
  const { page: _page, limit: _limit, sort: _sort, ...csvFilter } = input;

  const columns: Column<AuditEntry>[] = [
    { header: 'When', cell: (e) => formatDateTime(e.createdAt), sort: 'createdAt' },
    { header: 'Actor', cell: (e) => <TruncatedText maxWidth={200}>{e.actorName ?? (e.actorId ? `User #${e.actorId}` : 'System')}</TruncatedText> },
    { header: 'Action', cell: (e) => <StatusBadge tone="info">{e.action}</StatusBadge>, sort: 'action' },
    { header: 'Entity', cell: (e) => e.entity, sort: 'entity' },
    { header: 'Record', cell: (e) => <TruncatedText maxWidth={160}>{e.entityId ?? '—'}</TruncatedText> },
    { header: 'Client address', cell: (e) => <TruncatedText maxWidth={160}>{e.ip ?? '—'}</TruncatedText> },
    {
      header: 'Details',
      cell: (e) => (
        <RowAction
          label="View details"
          name={`View Details of ${e.action} ${e.entity} ${e.entityId ?? ''}`.trim()}
          icon={<IconEye size={18} aria-hidden />}
          onClick={() => setSelected(e)}
        />
      ),
    },
  ];

  return (
    <ListPage
      title="Audit Log"
      subtitle="Who changed what, and when: every change to every record."
      gap="md"
      resource={list}
      filters={
        <form onSubmit={apply} noValidate aria-label="Audit log filters">
          <Group align="flex-end" wrap="wrap">
            <TextInput label="Actor" placeholder="User ID, email or name" value={form.actor} onChange={(e) => set('actor')(e.currentTarget.value)} />
            <Select
              label="Entity"
              placeholder="All entities"
              data={AUDIT_ENTITIES as unknown as string[]}
              value={form.entity || null}
              onChange={(v) => set('entity')(v ?? '')}
              clearable
            />
            <TextInput label="Action" placeholder="e.g. update" value={form.action} onChange={(e) => set('action')(e.currentTarget.value)} />
            <TextInput type="date" label="From" value={form.from} onChange={(e) => set('from')(e.currentTarget.value)} />
            <TextInput type="date" label="To" value={form.to} onChange={(e) => set('to')(e.currentTarget.value)} />
            <Button type="submit">Filter</Button>
            <Button variant="default" onClick={clear}>
              Clear
            </Button>
            <CsvButton endpoint={auditApi.csv} input={{ query: csvFilter }} filename="audit-log.csv" onError={setDownloadError} />
          </Group>
        </form>
      }
      toolbar={
        <>
          {query.isError && (
            <Alert color="red" role="alert">
              {errorMessage(query.error, 'Failed to load the audit log')}
            </Alert>
          )}
          {downloadError && (
            <Alert color="red" role="alert" withCloseButton onClose={() => setDownloadError(null)}>
              {downloadError}
            </Alert>
          )}
          {query.data && (
            <Text size="sm" c="dimmed">
              {formatCount(query.data.total)}
              {query.data.totalCapped ? '+' : ''} {query.data.total === 1 ? 'change' : 'changes'}
            </Text>
          )}
        </>
      }
      caption="Audit log"
      columns={columns}
      rowKey={(e) => e.id}
      empty={<Text c="dimmed">No changes recorded for these filters.</Text>}
      paging={query.data && { limit: LIMIT, total: query.data.total }}
    >
      <AuditDetails entry={selected} onClose={() => setSelected(null)} />
    </ListPage>
  );
}

function formOf(f: Filters) {
  return { actor: f.actor, entity: f.entity, action: f.action, from: f.from, to: f.to };
}
