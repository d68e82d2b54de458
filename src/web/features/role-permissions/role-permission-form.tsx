import { useState, type FormEvent } from 'react';
import { Alert, Button, Checkbox, Group, Modal, NumberInput, Stack, TextInput } from '@mantine/core';
import { failureMessage, useUpdateRolePermission, type NewRolePermission, type RolePermissionRow } from './role-permissions.api';

interface RolePermissionFormProps {
  editing: RolePermissionRow | null;
  onClose: () => void;
  onSaved: (message: string) => void;
  /** Creation is optimistic and outlives this modal, so the page runs it. */
  onCreate: (body: NewRolePermission) => void;
}

/** Spec §5: comma-separated numbers; non-numeric items are dropped. */
export function parsePermissionIds(text: string): number[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => /^\d+$/.test(part))
    .map(Number)
    .filter((n) => n > 0);
}

export function RolePermissionForm({ editing, onClose, onSaved, onCreate }: RolePermissionFormProps) {
  const [roleId, setRoleId] = useState<number | string>(editing?.roleId ?? '');
  const [roleName, setRoleName] = useState(editing?.roleName ?? '');
  const [permissionName, setPermissionName] = useState(editing?.permissionName ?? '');
  const [idsText, setIdsText] = useState(editing?.permissionIds.join(', ') ?? '');
  const [active, setActive] = useState(editing?.status ?? true);
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateRolePermission();
  const busy = update.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const id = Number(roleId);
    const permissionIds = parsePermissionIds(idsText);
    if (!Number.isInteger(id) || id <= 0 || permissionIds.length === 0) {
      setError('Please fill in all fields');
      return;
    }
    setError(null);
    const fields = { roleName: roleName.trim() || undefined, permissionName: permissionName.trim() || undefined, permissionIds, status: active };
    if (editing) {
      update.mutate(
        { roleId: id, body: fields },
        {
          onSuccess: (answer) => onSaved(answer?.message ?? 'Role permission updated successfully'),
          onError: (err) => setError(failureMessage(err, 'Failed to update role permission')),
        },
      );
      return;
    }
    onCreate({ roleId: id, ...fields });
  };

  const title = editing ? 'Edit Role Permission' : 'Add Role Permission';
  return (
    <Modal opened onClose={onClose} title={title} centered>
      <form onSubmit={submit} noValidate aria-label={title}>
        <Stack gap="md">
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          <NumberInput
            label="Role ID"
            value={roleId}
            onChange={setRoleId}
            allowDecimal={false}
            allowNegative={false}
            disabled={editing !== null}
            withAsterisk
            data-autofocus
          />
          <TextInput label="Role Name" value={roleName} onChange={(e) => setRoleName(e.currentTarget.value)} />
          <TextInput
            label="Permission Name"
            placeholder="Permission Group"
            value={permissionName}
            onChange={(e) => setPermissionName(e.currentTarget.value)}
          />
          <TextInput
            label="Permission IDs"
            description="Comma-separated numbers, e.g. 1, 2, 3"
            value={idsText}
            onChange={(e) => setIdsText(e.currentTarget.value)}
            withAsterisk
          />
          <Checkbox label="Active" checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              {editing ? 'Update' : 'Create'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
