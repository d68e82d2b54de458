import { useState, type FormEvent } from 'react';
import { Alert, Button, Checkbox, Group, Modal, Stack, Switch, TextInput } from '@mantine/core';
import { errorMessage } from '../../lib/api-client';
import { useSaveRole, type RoleRow } from './roles.api';

interface RoleFormProps {
  editing: RoleRow | null;
  onClose: () => void;
  onSaved: (message: string) => void;
}

export function RoleForm({ editing, onClose, onSaved }: RoleFormProps) {
  const [name, setName] = useState(editing?.name ?? '');
  const [active, setActive] = useState(editing?.status ?? true);
  const [twoFactor, setTwoFactor] = useState(editing?.twoFactorRequired ?? false);
  const [error, setError] = useState<string | null>(null);
  const save = useSaveRole();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    if (!name.trim()) {
      setError('Please enter a role name');
      return;
    }
    setError(null);
    save.mutate(
      { id: editing?.id ?? null, body: { name: name.trim(), status: active, twoFactorRequired: twoFactor } },
      {
        onSuccess: () => onSaved(editing ? 'Role updated successfully' : 'Role created successfully'),
        onError: (err) => setError(errorMessage(err, 'Failed to save role')),
      },
    );
  };

  return (
    <Modal opened onClose={onClose} title={editing ? 'Edit Role' : 'Add Role'} centered>
      <form onSubmit={submit} noValidate aria-label={editing ? 'Edit Role' : 'Add Role'}>
        <Stack gap="md">
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          <TextInput label="Role Name" value={name} onChange={(e) => setName(e.currentTarget.value)} withAsterisk data-autofocus />
          <Checkbox label="Active" checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />
          <Switch
            label="Two-factor required"
            description="Accounts of this role must sign in with a code from an authenticator app; those not enrolled yet set it up right after their password."
            checked={twoFactor}
            onChange={(e) => setTwoFactor(e.currentTarget.checked)}
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
