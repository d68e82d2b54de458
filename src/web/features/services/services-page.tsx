import { Badge, Button, Group, Select, Text } from '@mantine/core';
import type { Column } from '../../components/data-table';
import { ErrorAlert } from '../../components/error-alert';
import { ListPage, ListSearch } from '../../components/list-page';
import { useResource } from '../../components/use-resource';
import { ServiceForm } from './service-form';
import { ServiceIcon } from './service-icon';
import { SAMPLE_SERVICES, servicesQuery, type ServiceRow } from './services.api';

const FILTERS = { q: '', category: 'All', status: 'All' };
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
    sample: SAMPLE_SERVICES,
    idOf: (s) => s.id,
  });

  const columns: Column<ServiceRow>[] = [
    { header: 'S.No', cell: (_, i) => i + 1, width: 70 },
    { header: 'Service Name', cell: (s) => <Text fw={600} size="sm">{s.serviceName}</Text> },
    { header: 'Service Icon', cell: (s) => <ServiceIcon src={s.serviceIcon} name={s.serviceName} /> },
    {
      header: 'Status',
      cell: (s) => (
        <Badge tt="none" variant="light" color={s.status ? 'teal' : 'gray'}>
          {s.status ? 'Active' : 'Inactive'}
        </Badge>
      ),
    },
    {
      header: 'Category',
      cell: (s) => (
        <Badge tt="none" variant="outline" color={s.category === 'BBPS' ? 'grape' : 'indigo'}>
          {s.category}
        </Badge>
      ),
    },
    {
      header: 'Actions',
      width: 130,
      cell: (s) =>
        services.readOnly ? (
          <Badge tt="none" variant="outline" color="orange">
            Sample data
          </Badge>
        ) : (
          <Button size="xs" variant="light" onClick={() => services.openEdit(s)} aria-label={`Edit ${s.serviceName}`}>
            Edit
          </Button>
        ),
    },
  ];

  const { filters, setFilters } = services;
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
      caption="Services"
      columns={columns}
      rowKey={(s) => s.id ?? s.serviceName}
      empty={<Text c="dimmed">No services found</Text>}
      form={(editing) => <ServiceForm editing={editing} onClose={services.closeForm} onSaved={services.saved} />}
    />
  );
}
