import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import type { RolePermissionRow } from './role-permissions.api';

interface DeletePermissionPromptProps {
  row: RolePermissionRow;
  onChosen: (permissionId: number) => void;
  onCancel: () => void;
}

/** Spec §5: a role with several permissions asks which one to delete, by typed id. */
export function DeletePermissionPrompt({ row, onChosen, onCancel }: DeletePermissionPromptProps) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const id = Number(value.trim());
    if (!/^\d+$/.test(value.trim()) || !row.permissionIds.includes(id)) {
      setError('Invalid permission ID. Please try again.');
      return;
    }
    onChosen(id);
  };

  return (
    <Modal opened onClose={onCancel} title="Delete Permission" centered>
      <form onSubmit={submit} noValidate aria-label="Delete Permission">
        <Stack gap="md">
          <Text size="sm">
            {`Role ${row.roleId} has permissions ${row.permissionIds.join(', ')}. Enter the permission ID to delete:`}
          </Text>
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          <TextInput label="Permission ID" value={value} onChange={(e) => setValue(e.currentTarget.value)} inputMode="numeric" data-autofocus />
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
            <Button type="submit" color="red">
              Continue
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
