import { Badge, Group, Select, Text } from '@mantine/core';
import { PERMISSION_MODULES } from '../../../contract/permissions';
import type { Column } from '../../components/data-table';
import { ErrorAlert } from '../../components/error-alert';
import { ListPage, ListSearch } from '../../components/list-page';
import { EditDeleteButtons } from '../../components/row-actions';
import { useResource } from '../../components/use-resource';
import { PermissionForm } from './permission-form';
import { permissionsQuery, SAMPLE_PERMISSIONS, useDeletePermission, type PermissionRow } from './permissions.api';

const ALL = 'all';
const FILTERS = { q: '', module: ALL };
const MODULE_OPTIONS = [{ value: ALL, label: 'All Modules' }, ...PERMISSION_MODULES.map((m) => ({ value: m, label: m }))];

function matches(p: PermissionRow, f: typeof FILTERS) {
  const term = f.q.trim().toLowerCase();
  return (f.module === ALL || p.module === f.module) && (!term || p.name.toLowerCase().includes(term) || p.description.toLowerCase().includes(term));
}

export default function PermissionsPage() {
  const permissions = useResource({
    noun: 'permission',
    filters: FILTERS,
    query: () => permissionsQuery(),
    match: matches,
    sample: SAMPLE_PERMISSIONS,
    idOf: (p) => p.id,
    remove: useDeletePermission(),
  });

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
        permissions.readOnly ? (
          <Badge tt="none" variant="outline" color="orange">
            Sample data
          </Badge>
        ) : (
          <EditDeleteButtons name={p.name} onEdit={() => permissions.openEdit(p)} onDelete={() => permissions.askDelete(p)} />
        ),
    },
  ];

  const { filters, setFilters } = permissions;
  return (
    <ListPage
      title="Permissions"
      addLabel="Add Permission"
      resource={permissions}
      loadError={<ErrorAlert error={permissions.list.error} prefix="Failed to load permissions: " withIcon />}
      filters={
        <Group gap="sm" align="flex-end">
          <ListSearch label="Search permissions" placeholder="Search permissions..." value={filters.q} onChange={(q) => setFilters({ q })} />
          <Select
            aria-label="Module"
            data={MODULE_OPTIONS}
            value={filters.module}
            onChange={(v) => setFilters({ module: v ?? ALL })}
            allowDeselect={false}
            w={200}
          />
        </Group>
      }
      loadingText="Loading permissions..."
      caption="Permissions"
      columns={columns}
      rowKey={(p) => p.id ?? p.name}
      empty={<Text c="dimmed">No permissions found</Text>}
      confirm={{ title: 'Delete Permission', message: () => 'Are you sure you want to delete this permission?' }}
      form={(editing) => <PermissionForm editing={editing} onClose={permissions.closeForm} onSaved={permissions.saved} />}
    />
  );
}
