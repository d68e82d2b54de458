import { Group, Text } from '@mantine/core';
import { rolesApi } from '../../../contract/access';
import { CsvExport } from '../../components/csv-button';
import type { Column } from '../../components/data-table';
import { ErrorAlert } from '../../components/error-alert';
import { ListPage, ListSearch } from '../../components/list-page';
import { EditDeleteButtons } from '../../components/row-actions';
import { ActiveBadge, StatusBadge } from '../../components/status-badge';
import { TruncatedText } from '../../components/truncated-text';
import { useResource } from '../../components/use-resource';
import { RoleForm } from './role-form';
import { rolesQuery, useDeleteRole, type RoleRow } from './roles.api';

// sort '': the server's order (by id).
const FILTERS = { q: '', sort: '' };
const COMPARE = {
  name: (a: RoleRow, b: RoleRow) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true }),
  status: (a: RoleRow, b: RoleRow) => Number(b.status) - Number(a.status),
};

export default function RolesPage() {
  const roles = useResource({
    noun: 'role',
    filters: FILTERS,
    query: () => rolesQuery(),
    match: (r: RoleRow, f) => r.name.toLowerCase().includes(f.q.trim().toLowerCase()),
    compare: COMPARE,
    idOf: (r) => r.id,
    remove: useDeleteRole(),
  });

  const columns: Column<RoleRow>[] = [
    { header: 'S.No', cell: (_, i) => i + 1, width: 70 },
    { header: 'Name', sort: 'name', cell: (r) => <TruncatedText fw={600}>{r.name}</TruncatedText> },
    {
      header: 'Status',
      sort: 'status',
      cell: (r) => (
        <Group gap="xs" wrap="nowrap">
          <ActiveBadge active={r.status} />
          {r.twoFactorRequired && <StatusBadge tone="info">Two-factor required</StatusBadge>}
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
      toolbar={<CsvExport endpoint={rolesApi.csv} input={{ query: { q: roles.filters.q.trim() || undefined } }} filename="roles.csv" disabled={roles.failed} />}
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

