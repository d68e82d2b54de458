import { useMemo, useState } from 'react';
import { Alert, Badge, Button, Group, Loader, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle, IconPlus, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { PERMISSION_MODULES } from '../../../contract/permissions';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable, type Column } from '../../components/data-table';
import { SuccessBanner, useSuccessBanner } from '../../components/success-banner';
import { useRecordActions } from '../../components/use-record-actions';
import { PermissionForm } from './permission-form';
import { permissionsQuery, SAMPLE_PERMISSIONS, useDeletePermission, type PermissionRow } from './permissions.api';

const ALL = 'all';

export default function PermissionsPage() {
  const permissions = useQuery(permissionsQuery());
  const remove = useDeletePermission();
  const [search, setSearch] = useState('');
  const [module, setModule] = useState(ALL);
  const [success, showSuccess] = useSuccessBanner();
  const { form, setForm, deleting, setDeleting, actionError, setActionError, edit, askDelete, confirmDelete } =
    useRecordActions<PermissionRow>('permission', remove, showSuccess);

  const sample = permissions.isError;
  const rows = permissions.data ?? (sample ? SAMPLE_PERMISSIONS : undefined);
  const shown = useMemo(() => {
    const term = search.trim().toLowerCase();
    return rows?.filter(
      (p) =>
        (module === ALL || p.module === module) &&
        (!term || p.name.toLowerCase().includes(term) || p.description.toLowerCase().includes(term)),
    );
  }, [rows, search, module]);

  const columns: Column<PermissionRow>[] = [
    { header: 'S.No', cell: (_, i) => i + 1, width: 70 },
    {
      header: 'Name',
      cell: (p) => (
        <Group gap="xs" wrap="nowrap">
          <Text fw={600} size="sm" ff="monospace">
            {p.name}
          </Text>
          <Badge tt="none" variant="light" size="sm" color="gray">
            {p.module}
          </Badge>
        </Group>
      ),
    },
    { header: 'Description', cell: (p) => p.description },
    {
      header: 'Actions',
      width: 170,
      cell: (p) =>
        sample ? (
          <Badge tt="none" variant="outline" color="orange">
            Sample data
          </Badge>
        ) : (
          <Group gap="xs" wrap="nowrap">
            <Button size="xs" variant="light" onClick={() => edit(p)} aria-label={`Edit ${p.name}`}>
              Edit
            </Button>
            <Button size="xs" variant="light" color="red" onClick={() => askDelete(p)} aria-label={`Delete ${p.name}`}>
              Delete
            </Button>
          </Group>
        ),
    },
  ];

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1} size="h2">
          Permissions
        </Title>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setForm({ editing: null })} disabled={sample}>
          Add Permission
        </Button>
      </Group>
      <SuccessBanner message={success} />
      {sample && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
          {`Failed to load permissions: ${permissions.error.message}`}
        </Alert>
      )}
      {actionError && (
        <Alert color="red" variant="light" role="alert" withCloseButton onClose={() => setActionError(null)}>
          {actionError}
        </Alert>
      )}
      <Group gap="sm" align="flex-end">
        <TextInput
          placeholder="Search permissions..."
          aria-label="Search permissions"
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          w={{ base: '100%', sm: 320 }}
        />
        <Select
          aria-label="Module"
          data={[{ value: ALL, label: 'All Modules' }, ...PERMISSION_MODULES.map((m) => ({ value: m, label: m }))]}
          value={module}
          onChange={(v) => setModule(v ?? ALL)}
          allowDeselect={false}
          w={200}
        />
      </Group>
      {permissions.isPending && (
        <Group gap="xs" role="status">
          <Loader size="xs" />
          <Text size="sm" c="dimmed">
            Loading permissions...
          </Text>
        </Group>
      )}
      <DataTable
        caption="Permissions"
        columns={columns}
        rows={shown}
        rowKey={(p) => p.id ?? p.name}
        loading={permissions.isPending}
        empty={<Text c="dimmed">No permissions found</Text>}
      />
      {form && (
        <PermissionForm
          editing={form.editing}
          onClose={() => setForm(null)}
          onSaved={(message) => {
            setForm(null);
            showSuccess(message);
          }}
        />
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title="Delete Permission"
        message="Are you sure you want to delete this permission?"
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}
