import { useState, type FormEvent } from 'react';
import { Alert, Button, Checkbox, Group, Modal, Stack, TextInput } from '@mantine/core';
import type { Rank } from '../../../contract/ranks';
import { ApiError } from '../../lib/api-client';
import { useSaveRank } from './ranks.api';

interface RankFormModalProps {
  opened: boolean;
  rank: Rank | null;
  onClose: () => void;
  onSaved: (message: string) => void;
}

export function RankFormModal({ opened, rank, onClose, onSaved }: RankFormModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={rank ? 'Edit Rank' : 'Add Rank'} centered>
      {opened && <RankForm rank={rank} onCancel={onClose} onSaved={onSaved} />}
    </Modal>
  );
}

function RankForm({ rank, onCancel, onSaved }: { rank: Rank | null; onCancel: () => void; onSaved: (message: string) => void }) {
  const [name, setName] = useState(rank?.name ?? '');
  const [status, setStatus] = useState(rank?.status ?? true);
  const [error, setError] = useState<string | null>(null);
  const save = useSaveRank();

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setError(null);
    if (!name.trim()) {
      setError('Rank name is required');
      return;
    }
    try {
      const result = await save.mutateAsync({ rankId: rank?.rankId ?? null, body: { name: name.trim(), status } });
      onSaved(result.message);
    } catch (err) {
      setError(`Failed to save rank: ${err instanceof ApiError || err instanceof Error ? err.message : 'An unexpected error occurred'}`);
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        <TextInput label="Rank Name" withAsterisk value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={50} data-autofocus />
        <Checkbox label="Active" checked={status} onChange={(e) => setStatus(e.currentTarget.checked)} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {rank ? 'Update' : 'Create'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
