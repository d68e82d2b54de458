import { Badge, Group, Text } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import type { Column } from '../../components/data-table';
import { ErrorAlert } from '../../components/error-alert';
import { ListPage, ListSearch } from '../../components/list-page';
import { EditDeleteButtons } from '../../components/row-actions';
import { useResource } from '../../components/use-resource';
import { RoleForm } from './role-form';
import { rolesQuery, useDeleteRole, type RoleRow } from './roles.api';

const FILTERS = { q: '' };

export default function RolesPage() {
  const roles = useResource({
    noun: 'role',
    filters: FILTERS,
    query: () => rolesQuery(),
    match: (r: RoleRow, f) => r.name.toLowerCase().includes(f.q.trim().toLowerCase()),
    idOf: (r) => r.id,
    remove: useDeleteRole(),
  });

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
      cell: (r) => <EditDeleteButtons name={r.name} onEdit={() => roles.openEdit(r)} onDelete={() => roles.askDelete(r)} />,
    },
  ];

  return (
    <ListPage
      title="User Roles"
      subtitle="Manage system roles"
      addLabel="Add Role"
      resource={roles}
      loadError={<ErrorAlert error={roles.list.error} prefix="Failed to load data: " withIcon />}
      filters={<ListSearch label="Search roles" placeholder="Search roles..." value={roles.filters.q} onChange={(q) => roles.setFilters({ q })} />}
      loadingText="Loading roles..."
      caption="User Roles"
      columns={columns}
      rowKey={(r) => r.id ?? r.name}
      empty={<Text c="dimmed">No roles found</Text>}
      confirm={{ title: 'Delete Role', message: () => 'Are you sure you want to delete this role?' }}
      form={(editing) => <RoleForm editing={editing} onClose={roles.closeForm} onSaved={roles.saved} />}
    />
  );
}

