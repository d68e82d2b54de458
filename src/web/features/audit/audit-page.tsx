import { useState, type FormEvent } from 'react';
import { Alert, Badge, Button, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { AUDIT_ENTITIES, auditApi, type AuditEntry, type AuditQuery } from '../../../contract/audit';
import { isoToWireDate } from '../../../contract/common';
import { DataTable, type Column } from '../../components/data-table';
import { errorMessage } from '../../lib/api-client';
import { formatCount, formatDateTime } from '../../lib/format';
import { CsvButton } from '../../components/csv-button';
import { auditQueryOptions } from './audit.api';
import { AuditDetails } from './audit-details';

const LIMIT = 25;
const EMPTY = { actor: '', entity: '', action: '', from: '', to: '' };

type Filter = Omit<AuditQuery, 'page' | 'limit'> & { page: number; limit: number };

export default function AuditPage() {
  const [form, setForm] = useState(EMPTY);
  const [filter, setFilter] = useState<Filter>({ page: 1, limit: LIMIT });
  const [selected, setSelected] = useState<AuditEntry | null>(null);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const query = useQuery(auditQueryOptions(filter));

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilter({
      page: 1,
      limit: LIMIT,
      actor: form.actor || undefined,
      entity: form.entity || undefined,
      action: form.action || undefined,
      fromDate: form.from ? isoToWireDate(form.from) : undefined,
      toDate: form.to ? isoToWireDate(form.to) : undefined,
    });
  };
  const clear = () => {
    setForm(EMPTY);
    setFilter({ page: 1, limit: LIMIT });
  };
  const set = (key: keyof typeof EMPTY) => (value: string) => setForm((f) => ({ ...f, [key]: value }));
  const { page: _page, limit: _limit, ...csvFilter } = filter;

  const columns: Column<AuditEntry>[] = [
    { header: 'When', cell: (e) => formatDateTime(e.createdAt) },
    { header: 'Actor', cell: (e) => e.actorName ?? (e.actorId ? `User #${e.actorId}` : 'System') },
    { header: 'Action', cell: (e) => <Badge variant="light">{e.action}</Badge> },
    { header: 'Entity', cell: (e) => e.entity },
    { header: 'Record', cell: (e) => e.entityId ?? '—' },
    { header: 'Client address', cell: (e) => e.ip ?? '—' },
    {
      header: 'Details',
      cell: (e) => (
        <Button size="xs" variant="subtle" onClick={() => setSelected(e)} aria-label={`View Details of ${e.action} ${e.entity} ${e.entityId ?? ''}`}>
          View
        </Button>
      ),
    },
  ];

  return (
    <Stack>
      <div>
        <Title order={1} size="h2">
          Audit Log
        </Title>
        <Text c="dimmed">Who changed what, and when: every change to every record.</Text>
      </div>
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
      <DataTable
        caption="Audit log"
        columns={columns}
        rows={query.data?.data}
        rowKey={(e) => e.id}
        loading={query.isPending}
        empty={<Text c="dimmed">No changes recorded for these filters.</Text>}
        paging={
          query.data && {
            page: filter.page,
            limit: LIMIT,
            total: query.data.total,
            onPage: (page) => setFilter((f) => ({ ...f, page })),
          }
        }
      />
      <AuditDetails entry={selected} onClose={() => setSelected(null)} />
    </Stack>
  );
}
