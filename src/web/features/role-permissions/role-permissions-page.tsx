import { useState } from 'react';
import { Group, Text } from '@mantine/core';
import { IconEdit, IconKeyOff, IconToggleLeft, IconToggleRight, IconTrash } from '@tabler/icons-react';
import { rolePermissionsApi } from '../../../contract/access';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CsvExport } from '../../components/csv-button';
import type { Column } from '../../components/data-table';
import { ErrorAlert } from '../../components/error-alert';
import { ListPage } from '../../components/list-page';
import { RowAction, RowActions } from '../../components/row-actions';
import { ActiveBadge, StatusBadge } from '../../components/status-badge';
import { TruncatedText, TruncatedTextWith } from '../../components/truncated-text';
import { useResource } from '../../components/use-resource';
import { formatDateTime } from '../../lib/format';
import { DeletePermissionPrompt } from './delete-permission-prompt';
import { RolePermissionForm } from './role-permission-form';
import {
  failureMessage, permissionNames, rolePermissionsQuery, useDeleteRolePermissions, usePermissionCatalogue, useRemovePermissionFromRole,
  useUpdateRolePermission, type RolePermissionRow,
} from './role-permissions.api';

type Pending =
  | { kind: 'prompt'; row: RolePermissionRow }
  | { kind: 'permission'; roleId: number; permissionId: number }
  | { kind: 'role'; roleId: number };

// sort '': the server's order.
const FILTERS = { sort: '' };
const byText = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'base', numeric: true });
const COMPARE = {
  roleName: (a: RolePermissionRow, b: RolePermissionRow) => byText(a.roleName, b.roleName),
  roleId: (a: RolePermissionRow, b: RolePermissionRow) => (a.roleId ?? 0) - (b.roleId ?? 0),
  permissionName: (a: RolePermissionRow, b: RolePermissionRow) => byText(a.permissionName, b.permissionName),
  status: (a: RolePermissionRow, b: RolePermissionRow) => Number(b.status) - Number(a.status),
  createdAt: (a: RolePermissionRow, b: RolePermissionRow) => byText(a.createdAt ?? '', b.createdAt ?? ''),
};

export default function RolePermissionsPage() {
  const list = useResource({
    noun: 'role',
    filters: FILTERS,
    query: () => rolePermissionsQuery(),
    compare: COMPARE,
    idOf: (r: RolePermissionRow) => r.roleId,
  });
  const toggle = useUpdateRolePermission();
  const removeOne = useRemovePermissionFromRole();
  const removeRole = useDeleteRolePermissions();
  const [pending, setPending] = useState<Pending | null>(null);
  const catalogue = usePermissionCatalogue();
  const { done, fail } = list;
  // Every answer of the screen: the server's message, else the screen's own (spec §8).
  const reply = (success: string, failure: string) => ({
    onSuccess: (answer: { message?: string } | undefined) => done(answer?.message ?? success),
    onError: (err: unknown) => fail(failureMessage(err, failure)),
  });

  /** Runs `then` for a row with a role id; spec §5: 'Invalid role ID' otherwise. */
  const withRole = (row: RolePermissionRow, then: (roleId: number) => void) => {
    if (row.roleId === null) return fail('Invalid role ID');
    fail(null);
    then(row.roleId);
  };

  const askDeletePermission = (row: RolePermissionRow) =>
    withRole(row, (roleId) => {
      if (row.permissionIds.length === 0) return fail('No permission ID found to delete');
      setPending(row.permissionIds.length === 1 ? { kind: 'permission', roleId, permissionId: row.permissionIds[0] } : { kind: 'prompt', row });
    });

  const flip = (row: RolePermissionRow) =>
    withRole(row, (roleId) =>
      toggle.mutate({ roleId, body: { permissionIds: row.permissionIds, status: !row.status } }, reply('Role permission updated successfully', 'Failed to update status')),
    );

  // Optimistic: the dialog closes at once and the row changes; a refusal restores it.
  const confirm = () => {
    if (pending?.kind === 'permission') {
      removeOne.mutate(pending, reply('Permission removed from role successfully', 'Failed to delete role permission'));
    } else if (pending?.kind === 'role') {
      removeRole.mutate(pending.roleId, reply('Role permissions deleted successfully', 'Failed to delete role'));
    }
    setPending(null);
  };

  const columns: Column<RolePermissionRow>[] = [
    { header: 'S.No', cell: (_, i) => i + 1, width: 60 },
    {
      header: 'Role Name',
      sort: 'roleName',
      cell: (r) => (
        <TruncatedTextWith fw={600} maxWidth={200} beside={r.pending && <StatusBadge tone="neutral">Saving...</StatusBadge>}>
          {r.roleName}
        </TruncatedTextWith>
      ),
    },
    { header: 'Role ID', sort: 'roleId', cell: (r) => r.roleId ?? 'N/A' },
    { header: 'Permission Name', sort: 'permissionName', cell: (r) => <TruncatedText maxWidth={200}>{r.permissionName}</TruncatedText> },
    {
      header: 'Permission IDs',
      width: 260,
      // Names beside the ids (issue 24), when the catalogue can be read.
      cell: (r) => (r.permissionIds.length ? (
        <div>
          <Text size="sm">{r.permissionIds.join(', ')}</Text>
          {catalogue && (
            <TruncatedText size="xs" c="dimmed" ff="monospace" maxWidth={260}>
              {permissionNames(r.permissionIds, catalogue)}
            </TruncatedText>
          )}
        </div>
      ) : '—'),
    },
    {
      header: 'Status',
      sort: 'status',
      width: 170,
      cell: (r) => (
        <Group gap="xs" wrap="nowrap">
          <ActiveBadge active={r.status} />
          <RowAction
            label="Toggle"
            name={`Toggle ${r.roleName}`}
            icon={r.status ? <IconToggleRight size={18} aria-hidden /> : <IconToggleLeft size={18} aria-hidden />}
            onClick={() => flip(r)}
            disabled={r.pending || (toggle.isPending && toggle.variables?.roleId === r.roleId)}
          />
        </Group>
      ),
    },
    { header: 'Created At', sort: 'createdAt', cell: (r) => formatDateTime(r.createdAt) },
    {
      header: 'Actions',
      cell: (r) => (
        <RowActions>
          <RowAction label="Edit" name={`Edit ${r.roleName}`} icon={<IconEdit size={18} aria-hidden />} disabled={r.pending} onClick={() => withRole(r, () => list.openEdit(r))} />
          <RowAction
            label="Delete Permission"
            name={`Delete Permission of ${r.roleName}`}
            icon={<IconKeyOff size={18} aria-hidden />}
            color="orange"
            disabled={r.pending}
            onClick={() => askDeletePermission(r)}
          />
          <RowAction
            label="Delete Role"
            name={`Delete role ${r.roleName}`}
            icon={<IconTrash size={18} aria-hidden />}
            color="red"
            disabled={r.pending}
            onClick={() => withRole(r, (roleId) => setPending({ kind: 'role', roleId }))}
          />
        </RowActions>
      ),
    },
  ];

  return (
    <ListPage
      title="Role Permissions"
      addLabel="Add Role Permission"
      resource={list}
      loadError={<ErrorAlert error={failureMessage(list.list.error, 'Failed to load role permissions')} withIcon />}
      toolbar={<CsvExport endpoint={rolePermissionsApi.csv} filename="role-permissions.csv" disabled={list.failed} />}
      caption="Role Permissions"
      columns={columns}
      rowKey={(r) => r.key}
      empty={<Text c="dimmed">No role permissions found</Text>}
      form={(editing) => <RolePermissionForm editing={editing} onClose={list.closeForm} onSaved={list.saved} />}
    >
      {pending?.kind === 'prompt' && (
        <DeletePermissionPrompt
          row={pending.row}
          catalogue={catalogue}
          onCancel={() => setPending(null)}
          onChosen={(permissionId) => setPending({ kind: 'permission', roleId: pending.row.roleId!, permissionId })}
        />
      )}
      <ConfirmDialog
        opened={pending?.kind === 'permission' || pending?.kind === 'role'}
        title={pending?.kind === 'role' ? 'Delete Role' : 'Delete Permission'}
        message={
          pending?.kind === 'permission'
            ? `Are you sure you want to delete permission ${pending.permissionId} from role ${pending.roleId}?`
            : pending?.kind === 'role'
              ? `Are you sure you want to delete role ${pending.roleId} with all its permissions? This action cannot be undone.`
              : ''
        }
        onConfirm={confirm}
        onCancel={() => setPending(null)}
      />
    </ListPage>
  );
}
