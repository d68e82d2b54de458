import { Group, Select, Text } from '@mantine/core';
import { permissionsApi } from '../../../contract/access';
import { PERMISSION_MODULES, type PermissionModule } from '../../../contract/permissions';
import { CsvExport } from '../../components/csv-button';
import type { Column } from '../../components/data-table';
import { ErrorAlert } from '../../components/error-alert';
import { ListPage, ListSearch } from '../../components/list-page';
import { EditDeleteButtons } from '../../components/row-actions';
import { StatusBadge } from '../../components/status-badge';
import { TruncatedText, TruncatedTextWith } from '../../components/truncated-text';
import { useResource } from '../../components/use-resource';
import { PermissionForm } from './permission-form';
import { permissionsQuery, SAMPLE_PERMISSIONS, useDeletePermission, type PermissionRow } from './permissions.api';

const ALL = 'all';
// sort '': the server's order (by id).
const FILTERS = { q: '', module: ALL, sort: '' };
const byText = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'base', numeric: true });
const COMPARE = {
  id: (a: PermissionRow, b: PermissionRow) => (a.id ?? 0) - (b.id ?? 0),
  name: (a: PermissionRow, b: PermissionRow) => byText(a.name, b.name),
  module: (a: PermissionRow, b: PermissionRow) => byText(a.module, b.module) || byText(a.name, b.name),
  description: (a: PermissionRow, b: PermissionRow) => byText(a.description, b.description),
};
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
    compare: COMPARE,
    sample: SAMPLE_PERMISSIONS,
    idOf: (p) => p.id,
    remove: useDeletePermission(),
  });

  const columns: Column<PermissionRow>[] = [
    { header: 'S.No', cell: (_, i) => i + 1, width: 70 },
    // The id a role's set holds (issue 24): S.No is only the row's place in this list.
    { header: 'Permission ID', sort: 'id', cell: (p) => p.id ?? 'N/A', width: 120 },
    {
      header: 'Name',
      sort: 'name',
      cell: (p) => (
        <TruncatedTextWith fw={600} ff="monospace" beside={<StatusBadge tone="neutral">{p.module}</StatusBadge>}>
          {p.name}
        </TruncatedTextWith>
      ),
    },
    { header: 'Description', sort: 'description', cell: (p) => <TruncatedText maxWidth={360}>{p.description}</TruncatedText> },
    {
      header: 'Actions',
      width: 170,
      cell: (p) =>
        permissions.readOnly ? (
          <StatusBadge tone="warning">Sample data</StatusBadge>
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
      toolbar={
        <CsvExport
          endpoint={permissionsApi.csv}
          input={{ query: { q: filters.q.trim() || undefined, module: filters.module === ALL ? undefined : (filters.module as PermissionModule) } }}
          filename="permissions.csv"
          disabled={permissions.failed}
        />
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
