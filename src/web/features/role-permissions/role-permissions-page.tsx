import { useState } from 'react';
import { Badge, Button, Group, Text } from '@mantine/core';
import { ConfirmDialog } from '../../components/confirm-dialog';
import type { Column } from '../../components/data-table';
import { ErrorAlert } from '../../components/error-alert';
import { ListPage } from '../../components/list-page';
import { useResource } from '../../components/use-resource';
import { formatDateTime } from '../../lib/format';
import { DeletePermissionPrompt } from './delete-permission-prompt';
import { RolePermissionForm } from './role-permission-form';
import {
  failureMessage, rolePermissionsQuery, useCreateRolePermission, useDeleteRolePermissions, useRemovePermissionFromRole,
  useUpdateRolePermission, type NewRolePermission, type RolePermissionRow,
} from './role-permissions.api';

type Pending =
  | { kind: 'prompt'; row: RolePermissionRow }
  | { kind: 'permission'; roleId: number; permissionId: number }
  | { kind: 'role'; roleId: number };

const NO_FILTERS = {};

export default function RolePermissionsPage() {
  const list = useResource({ noun: 'role', filters: NO_FILTERS, query: () => rolePermissionsQuery(), idOf: (r: RolePermissionRow) => r.roleId });
  const create = useCreateRolePermission();
  const toggle = useUpdateRolePermission();
  const removeOne = useRemovePermissionFromRole();
  const removeRole = useDeleteRolePermissions();
  const [pending, setPending] = useState<Pending | null>(null);
  const { done, fail } = list;
  // Every answer of the screen: the server's message, else the screen's own (spec §8).
  const reply = (success: string, failure: string) => ({
    onSuccess: (answer: { message?: string } | undefined) => done(answer?.message ?? success),
    onError: (err: unknown) => fail(failureMessage(err, failure)),
  });

  // Optimistic: the modal closes and a temporary row shows until the server answers.
  const submitNew = (body: NewRolePermission) => {
    list.closeForm();
    create.mutate(body, reply('Role permission created successfully', 'Failed to create role permission'));
  };

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

  const action = (r: RolePermissionRow, label: string, name: string, color: string, onClick: () => void) => (
    <Button size="compact-xs" variant="light" color={color} onClick={onClick} disabled={r.pending} aria-label={name}>
      {label}
    </Button>
  );

  const columns: Column<RolePermissionRow>[] = [
    { header: 'S.No', cell: (_, i) => i + 1, width: 60 },
    {
      header: 'Role Name',
      cell: (r) => (
        <Group gap="xs" wrap="nowrap">
          <Text fw={600} size="sm">
            {r.roleName}
          </Text>
          {r.pending && (
            <Badge tt="none" size="xs" variant="outline" color="gray">
              Saving...
            </Badge>
          )}
        </Group>
      ),
    },
    { header: 'Role ID', cell: (r) => r.roleId ?? 'N/A' },
    { header: 'Permission Name', cell: (r) => r.permissionName },
    { header: 'Permission IDs', width: 220, cell: (r) => (r.permissionIds.length ? r.permissionIds.join(', ') : '—') },
    {
      header: 'Status',
      width: 170,
      cell: (r) => (
        <Group gap="xs" wrap="nowrap">
          <Badge tt="none" variant="light" color={r.status ? 'teal' : 'gray'} style={{ flexShrink: 0 }}>
            {r.status ? 'Active' : 'Inactive'}
          </Badge>
          <Button
            size="compact-xs"
            variant="default"
            style={{ flexShrink: 0 }}
            onClick={() => flip(r)}
            disabled={r.pending}
            loading={toggle.isPending && toggle.variables?.roleId === r.roleId}
            aria-label={`Toggle ${r.roleName}`}
          >
            Toggle
          </Button>
        </Group>
      ),
    },
    { header: 'Created At', cell: (r) => formatDateTime(r.createdAt) },
    {
      header: 'Actions',
      cell: (r) => (
        <Group gap={6} wrap="nowrap">
          {action(r, 'Edit', `Edit ${r.roleName}`, 'blue', () => withRole(r, () => list.openEdit(r)))}
          {action(r, 'Delete Permission', `Delete Permission of ${r.roleName}`, 'orange', () => askDeletePermission(r))}
          {action(r, 'Delete Role', `Delete role ${r.roleName}`, 'red', () => withRole(r, (roleId) => setPending({ kind: 'role', roleId })))}
        </Group>
      ),
    },
  ];

  return (
    <ListPage
      title="Role Permissions"
      addLabel="Add Role Permission"
      resource={list}
      loadError={<ErrorAlert error={failureMessage(list.list.error, 'Failed to load role permissions')} withIcon />}
      caption="Role Permissions"
      columns={columns}
      rowKey={(r) => r.key}
      empty={<Text c="dimmed">No role permissions found</Text>}
      form={(editing) => <RolePermissionForm editing={editing} onClose={list.closeForm} onSaved={list.saved} onCreate={submitNew} />}
    >
      {pending?.kind === 'prompt' && (
        <DeletePermissionPrompt
          row={pending.row}
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
