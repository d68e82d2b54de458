import { useState } from 'react';
import { Alert, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable, type Column } from '../../components/data-table';
import { SuccessBanner, useSuccessBanner } from '../../components/success-banner';
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

export default function RolePermissionsPage() {
  const list = useQuery(rolePermissionsQuery());
  const create = useCreateRolePermission();
  const toggle = useUpdateRolePermission();
  const removeOne = useRemovePermissionFromRole();
  const removeRole = useDeleteRolePermissions();
  const [form, setForm] = useState<{ editing: RolePermissionRow | null } | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [success, showSuccess] = useSuccessBanner();

  const fail = (message: string) => {
    setActionError(message);
  };
  const done = (message: string) => {
    setActionError(null);
    showSuccess(message);
  };

  // Optimistic: the modal closes and a temporary row shows until the server answers.
  const submitNew = (body: NewRolePermission) => {
    setForm(null);
    create.mutate(body, {
      onSuccess: (answer) => done(answer?.message ?? 'Role permission created successfully'),
      onError: (err) => fail(failureMessage(err, 'Failed to create role permission')),
    });
  };

  const edit = (row: RolePermissionRow) => {
    if (row.roleId === null) return fail('Invalid role ID');
    setActionError(null);
    setForm({ editing: row });
  };

  const askDeletePermission = (row: RolePermissionRow) => {
    if (row.roleId === null) return fail('Invalid role ID');
    if (row.permissionIds.length === 0) return fail('No permission ID found to delete');
    setActionError(null);
    if (row.permissionIds.length === 1) setPending({ kind: 'permission', roleId: row.roleId, permissionId: row.permissionIds[0] });
    else setPending({ kind: 'prompt', row });
  };

  const askDeleteRole = (row: RolePermissionRow) => {
    if (row.roleId === null) return fail('Invalid role ID');
    setActionError(null);
    setPending({ kind: 'role', roleId: row.roleId });
  };

  const flip = (row: RolePermissionRow) => {
    if (row.roleId === null) return fail('Invalid role ID');
    toggle.mutate(
      { roleId: row.roleId, body: { permissionIds: row.permissionIds, status: !row.status } },
      {
        onSuccess: (answer) => done(answer?.message ?? 'Role permission updated successfully'),
        onError: (err) => fail(failureMessage(err, 'Failed to update status')),
      },
    );
  };

  // Optimistic: the dialog closes at once and the row changes; a refusal restores it.
  const confirm = () => {
    if (!pending || pending.kind === 'prompt') return;
    if (pending.kind === 'permission') {
      removeOne.mutate(
        { roleId: pending.roleId, permissionId: pending.permissionId },
        {
          onSuccess: (answer) => done(answer?.message ?? 'Permission removed from role successfully'),
          onError: (err) => fail(failureMessage(err, 'Failed to delete role permission')),
        },
      );
    } else {
      removeRole.mutate(pending.roleId, {
        onSuccess: (answer) => done(answer?.message ?? 'Role permissions deleted successfully'),
        onError: (err) => fail(failureMessage(err, 'Failed to delete role')),
      });
    }
    setPending(null);
  };

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
          <Button size="compact-xs" variant="light" onClick={() => edit(r)} disabled={r.pending} aria-label={`Edit ${r.roleName}`}>
            Edit
          </Button>
          <Button
            size="compact-xs"
            variant="light"
            color="orange"
            onClick={() => askDeletePermission(r)}
            disabled={r.pending}
            aria-label={`Delete Permission of ${r.roleName}`}
          >
            Delete Permission
          </Button>
          <Button
            size="compact-xs"
            variant="light"
            color="red"
            onClick={() => askDeleteRole(r)}
            disabled={r.pending}
            aria-label={`Delete role ${r.roleName}`}
          >
            Delete Role
          </Button>
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1} size="h2">
          Role Permissions
        </Title>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setForm({ editing: null })}>
          Add Role Permission
        </Button>
      </Group>
      <SuccessBanner message={success} />
      {list.isError && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
          {failureMessage(list.error, 'Failed to load role permissions')}
        </Alert>
      )}
      {actionError && (
        <Alert color="red" variant="light" role="alert" withCloseButton onClose={() => setActionError(null)}>
          {actionError}
        </Alert>
      )}
      <DataTable
        caption="Role Permissions"
        columns={columns}
        rows={list.data ?? (list.isError ? [] : undefined)}
        rowKey={(r) => r.key}
        loading={list.isPending}
        empty={<Text c="dimmed">No role permissions found</Text>}
      />
      {form && (
        <RolePermissionForm
          editing={form.editing}
          onClose={() => setForm(null)}
          onSaved={(message) => {
            setForm(null);
            done(message);
          }}
          onCreate={submitNew}
        />
      )}
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
    </Stack>
  );
}
