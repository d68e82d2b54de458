import { useState, type FormEvent } from 'react';
import { Text, TextInput } from '@mantine/core';
import { FormModal } from '../../components/form-modal';
import type { PermissionCatalogue, RolePermissionRow } from './role-permissions.api';

interface DeletePermissionPromptProps {
  row: RolePermissionRow;
  /** Names beside the ids (issue 24), when the catalogue can be read. */
  catalogue?: PermissionCatalogue | null;
  onChosen: (permissionId: number) => void;
  onCancel: () => void;
}

/** Spec §5: a role with several permissions asks which one to delete, by typed id. */
export function DeletePermissionPrompt({ row, catalogue, onChosen, onCancel }: DeletePermissionPromptProps) {
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
    <FormModal title="Delete Permission" onClose={onCancel} onSubmit={submit} error={error} busy={false} submitLabel="Continue" submitColor="red">
      <Text size="sm">{`Role ${row.roleId} has permissions ${row.permissionIds.join(', ')}. Enter the permission ID to delete:`}</Text>
      {catalogue && (
        <Text size="xs" c="dimmed" ff="monospace" component="ul" pl="md" m={0} aria-label="The role's permissions">
          {row.permissionIds.map((id) => (
            <li key={id}>{`${id}: ${catalogue.get(id)?.name ?? 'unknown permission'}`}</li>
          ))}
        </Text>
      )}
      <TextInput label="Permission ID" value={value} onChange={(e) => setValue(e.currentTarget.value)} inputMode="numeric" data-autofocus />
    </FormModal>
  );
}
