import { useMemo, useState } from 'react';
import { Alert, Badge, Button, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle, IconPlus, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { DataTable, type Column } from '../../components/data-table';
import { SuccessBanner, useSuccessBanner } from '../../components/success-banner';
import { ServiceForm } from './service-form';
import { ServiceIcon } from './service-icon';
import { SAMPLE_SERVICES, servicesQuery, type ServiceRow } from './services.api';

const CATEGORY_FILTER = ['All', 'Recharge', 'BBPS'];
const STATUS_FILTER = ['All', 'Active', 'Inactive'];

export default function ServicesPage() {
  const services = useQuery(servicesQuery());
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState('All');
  const [status, setStatus] = useState('All');
  const [form, setForm] = useState<{ editing: ServiceRow | null } | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [success, showSuccess] = useSuccessBanner();

  const sample = services.isError;
  const rows = services.data ?? (sample ? SAMPLE_SERVICES : undefined);
  const shown = useMemo(() => {
    const term = search.trim().toLowerCase();
    return rows?.filter(
      (s) =>
        (!term || s.serviceName.toLowerCase().includes(term) || s.serviceType.toLowerCase().includes(term)) &&
        (category === 'All' || s.category === category) &&
        (status === 'All' || s.status === (status === 'Active')),
    );
  }, [rows, search, category, status]);

  const edit = (row: ServiceRow) => {
    if (row.id === null) {
      setActionError('Unable to edit service: No valid ID found');
      return;
    }
    setActionError(null);
    setForm({ editing: row });
  };

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
        sample ? (
          <Badge tt="none" variant="outline" color="orange">
            Sample data
          </Badge>
        ) : (
          <Button size="xs" variant="light" onClick={() => edit(s)} aria-label={`Edit ${s.serviceName}`}>
            Edit
          </Button>
        ),
    },
  ];

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1} size="h2">
          Services
        </Title>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setForm({ editing: null })} disabled={sample}>
          Add Service
        </Button>
      </Group>
      <SuccessBanner message={success} />
      {sample && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
          {`Failed to load services: ${services.error.message}`}
        </Alert>
      )}
      {actionError && (
        <Alert color="red" variant="light" role="alert" withCloseButton onClose={() => setActionError(null)}>
          {actionError}
        </Alert>
      )}
      <Group gap="sm" align="flex-end">
        <TextInput
          placeholder="Search services..."
          aria-label="Search services"
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          w={{ base: '100%', sm: 300 }}
        />
        <Select label="Category" data={CATEGORY_FILTER} value={category} onChange={(v) => setCategory(v ?? 'All')} allowDeselect={false} w={160} />
        <Select label="Status" data={STATUS_FILTER} value={status} onChange={(v) => setStatus(v ?? 'All')} allowDeselect={false} w={160} />
      </Group>
      <DataTable
        caption="Services"
        columns={columns}
        rows={shown}
        rowKey={(s) => s.id ?? s.serviceName}
        loading={services.isPending}
        empty={<Text c="dimmed">No services found</Text>}
      />
      {form && (
        <ServiceForm
          editing={form.editing}
          onClose={() => setForm(null)}
          onSaved={(message) => {
            setForm(null);
            showSuccess(message);
          }}
        />
      )}
    </Stack>
  );
}
