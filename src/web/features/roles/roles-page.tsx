import { useMemo, useState } from 'react';
import { Alert, Badge, Button, Group, Loader, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle, IconPlus, IconSearch, IconShieldLock } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable, type Column } from '../../components/data-table';
import { SuccessBanner, useSuccessBanner } from '../../components/success-banner';
import { useRecordActions } from '../../components/use-record-actions';
import { RoleForm } from './role-form';
import { rolesQuery, useDeleteRole, type RoleRow } from './roles.api';

export default function RolesPage() {
  const roles = useQuery(rolesQuery());
  const remove = useDeleteRole();
  const [search, setSearch] = useState('');
  const [success, showSuccess] = useSuccessBanner();
  const { form, setForm, deleting, setDeleting, actionError, setActionError, edit, askDelete, confirmDelete } =
    useRecordActions<RoleRow>('role', remove, showSuccess);

  const shown = useMemo(() => {
    const term = search.trim().toLowerCase();
    return roles.data?.filter((r) => !term || r.name.toLowerCase().includes(term));
  }, [roles.data, search]);

  const columns: Column<RoleRow>[] = [
    { header: 'S.No', cell: (_, i) => i + 1, width: 70 },
    { header: 'Name', cell: (r) => <Text fw={600} size="sm">{r.name}</Text> },
    {
      header: 'Status',
      cell: (r) => (
        <Group gap="xs">
          <Badge tt="none" variant="light" color={r.status ? 'teal' : 'gray'}>
            {r.status ? 'Active' : 'Inactive'}
          </Badge>
          {r.twoFactorRequired && (
            <Badge tt="none" variant="outline" color="indigo" leftSection={<IconShieldLock size={12} aria-hidden />}>
              Two-factor required
            </Badge>
          )}
        </Group>
      ),
    },
    {
      header: 'Actions',
      width: 170,
      cell: (r) => (
        <Group gap="xs" wrap="nowrap">
          <Button size="xs" variant="light" onClick={() => edit(r)} aria-label={`Edit ${r.name}`}>
            Edit
          </Button>
          <Button size="xs" variant="light" color="red" onClick={() => askDelete(r)} aria-label={`Delete ${r.name}`}>
            Delete
          </Button>
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={1} size="h2">
            User Roles
          </Title>
          <Text c="dimmed">Manage system roles</Text>
        </div>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setForm({ editing: null })}>
          Add Role
        </Button>
      </Group>
      <SuccessBanner message={success} />
      {roles.isError && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
          {`Failed to load data: ${roles.error.message}`}
        </Alert>
      )}
      {actionError && (
        <Alert color="red" variant="light" role="alert" withCloseButton onClose={() => setActionError(null)}>
          {actionError}
        </Alert>
      )}
      <TextInput
        placeholder="Search roles..."
        aria-label="Search roles"
        leftSection={<IconSearch size={16} aria-hidden />}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        w={{ base: '100%', sm: 320 }}
      />
      {roles.isPending && (
        <Group gap="xs" role="status">
          <Loader size="xs" />
          <Text size="sm" c="dimmed">
            Loading roles...
          </Text>
        </Group>
      )}
      <DataTable
        caption="User Roles"
        columns={columns}
        rows={roles.isError ? [] : shown}
        rowKey={(r) => r.id ?? r.name}
        loading={roles.isPending}
        empty={<Text c="dimmed">No roles found</Text>}
      />
      {form && (
        <RoleForm
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
        title="Delete Role"
        message="Are you sure you want to delete this role?"
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}
