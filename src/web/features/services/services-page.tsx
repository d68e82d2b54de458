import { useState } from 'react';
import { Group, Select, Text } from '@mantine/core';
import { IconEdit } from '@tabler/icons-react';
import type { Column } from '../../components/data-table';
import { ErrorAlert } from '../../components/error-alert';
import { servicesApi } from '../../../contract/services';
import { CsvButton } from '../../components/csv-button';
import { ListPage, ListSearch } from '../../components/list-page';
import { RowAction } from '../../components/row-actions';
import { ActiveBadge, StatusBadge } from '../../components/status-badge';
import { TruncatedText } from '../../components/truncated-text';
import { useResource } from '../../components/use-resource';
import { ServiceForm } from './service-form';
import { ServiceIcon } from './service-icon';
import { SAMPLE_SERVICES, servicesQuery, type ServiceRow } from './services.api';

// sort '': the server's order (by id).
const FILTERS = { q: '', category: 'All', status: 'All', sort: '' };
const byText = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'base', numeric: true });
const COMPARE = {
  serviceName: (a: ServiceRow, b: ServiceRow) => byText(a.serviceName, b.serviceName),
  status: (a: ServiceRow, b: ServiceRow) => Number(b.status) - Number(a.status),
  category: (a: ServiceRow, b: ServiceRow) => byText(a.category, b.category),
};
const CATEGORY_FILTER = ['All', 'Recharge', 'BBPS'];
const STATUS_FILTER = ['All', 'Active', 'Inactive'];

function matches(s: ServiceRow, f: typeof FILTERS) {
  const term = f.q.trim().toLowerCase();
  return (
    (!term || s.serviceName.toLowerCase().includes(term) || s.serviceType.toLowerCase().includes(term)) &&
    (f.category === 'All' || s.category === f.category) &&
    (f.status === 'All' || s.status === (f.status === 'Active'))
  );
}

export default function ServicesPage() {
  const services = useResource({
    noun: 'service',
    filters: FILTERS,
    query: () => servicesQuery(),
    match: matches,
    compare: COMPARE,
    sample: SAMPLE_SERVICES,
    idOf: (s) => s.id,
  });

  const columns: Column<ServiceRow>[] = [
    { header: 'S.No', cell: (_, i) => i + 1, width: 70 },
    { header: 'Service Name', sort: 'serviceName', cell: (s) => <TruncatedText fw={600}>{s.serviceName}</TruncatedText> },
    { header: 'Service Icon', cell: (s) => <ServiceIcon src={s.serviceIcon} name={s.serviceName} /> },
    { header: 'Status', sort: 'status', cell: (s) => <ActiveBadge active={s.status} /> },
    { header: 'Category', sort: 'category', cell: (s) => <StatusBadge tone="info">{s.category}</StatusBadge> },
    {
      header: 'Actions',
      width: 130,
      cell: (s) =>
        services.readOnly ? (
          <StatusBadge tone="warning">Sample data</StatusBadge>
        ) : (
          <RowAction label="Edit" name={`Edit ${s.serviceName}`} icon={<IconEdit size={18} aria-hidden />} onClick={() => services.openEdit(s)} />
        ),
    },
  ];

  const { filters, setFilters } = services;
  const [exportError, setExportError] = useState<string | null>(null);
  return (
    <ListPage
      title="Services"
      addLabel="Add Service"
      resource={services}
      loadError={<ErrorAlert error={services.list.error} prefix="Failed to load services: " withIcon />}
      filters={
        <Group gap="sm" align="flex-end">
          <ListSearch label="Search services" placeholder="Search services..." value={filters.q} onChange={(q) => setFilters({ q })} />
          <Select label="Category" data={CATEGORY_FILTER} value={filters.category} onChange={(v) => setFilters({ category: v ?? 'All' })} allowDeselect={false} w={160} />
          <Select label="Status" data={STATUS_FILTER} value={filters.status} onChange={(v) => setFilters({ status: v ?? 'All' })} allowDeselect={false} w={160} />
        </Group>
      }
      toolbar={
        <>
          <Group justify="flex-end">
            <CsvButton endpoint={servicesApi.csv} filename="services.csv" disabled={services.failed} onError={setExportError} />
          </Group>
          <ErrorAlert error={exportError} onClose={() => setExportError(null)} />
        </>
      }
      caption="Services"
      columns={columns}
      rowKey={(s) => s.id ?? s.serviceName}
      empty={<Text c="dimmed">No services found</Text>}
      form={(editing) => <ServiceForm editing={editing} onClose={services.closeForm} onSaved={services.saved} />}
    />
  );
}
