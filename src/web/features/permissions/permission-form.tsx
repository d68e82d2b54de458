import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Modal, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { normalizePermissionName } from '../../../contract/access';
import { PERMISSION_MODULES, type PermissionModule } from '../../../contract/permissions';
import { errorMessage } from '../../lib/api-client';
import { useSavePermission, type PermissionRow } from './permissions.api';

interface PermissionFormProps {
  /** null: create; a row: edit it. */
  editing: PermissionRow | null;
  onClose: () => void;
  onSaved: (message: string) => void;
}

export function PermissionForm({ editing, onClose, onSaved }: PermissionFormProps) {
  const [module, setModule] = useState<string | null>(editing?.module ?? null);
  const [name, setName] = useState(editing?.name ?? '');
  const [description, setDescription] = useState(editing?.description ?? '');
  const [error, setError] = useState<string | null>(null);
  const save = useSavePermission();
  const formatted = normalizePermissionName(name);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    if (!module || !formatted || !description.trim()) {
      setError('Please fill in all fields');
      return;
    }
    setError(null);
    const body = { module: module as PermissionModule, name: formatted, description: description.trim() };
    save.mutate(
      { id: editing?.id ?? null, body },
      {
        onSuccess: () => onSaved(editing ? 'Permission updated successfully' : 'Permission created successfully'),
        onError: (err) => setError(errorMessage(err, 'Failed to save permission')),
      },
    );
  };

  return (
    <Modal opened onClose={onClose} title={editing ? 'Edit Permission' : 'Add Permission'} centered>
      <form onSubmit={submit} noValidate aria-label={editing ? 'Edit Permission' : 'Add Permission'}>
        <Stack gap="md">
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          <Select
            label="Module"
            placeholder="Select a module"
            data={[...PERMISSION_MODULES]}
            value={module}
            onChange={setModule}
            withAsterisk
            allowDeselect={false}
          />
          <TextInput
            label="Permission Name"
            description={`Will be formatted as lowercase with underscores${formatted ? `: ${formatted}` : ''}`}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            withAsterisk
            data-autofocus
          />
          <Textarea
            label="Description"
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
            withAsterisk
            rows={3}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={save.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              {editing ? 'Update' : 'Create'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
