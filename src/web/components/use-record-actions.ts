import { useState } from 'react';
import type { UseMutationResult } from '@tanstack/react-query';
import { errorMessage } from '../lib/api-client';

/**
 * The edit and delete plumbing of a catalogue screen (roles, permissions), with the spec's
 * messages (§5 missing ids, §8 failures and successes) derived from the record's noun.
 */
export function useRecordActions<Row extends { id: number | null }>(
  noun: 'role' | 'permission',
  remove: UseMutationResult<unknown, unknown, number>,
  showSuccess: (message: string) => void,
) {
  const [form, setForm] = useState<{ editing: Row | null } | null>(null);
  const [deleting, setDeleting] = useState<Row | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const Noun = `${noun[0].toUpperCase()}${noun.slice(1)}`;

  const edit = (row: Row) => {
    if (row.id === null) {
      setActionError(`Unable to edit ${noun}: No valid ID found`);
      return;
    }
    setActionError(null);
    setForm({ editing: row });
  };

  const askDelete = (row: Row) => {
    if (row.id === null) {
      setActionError(`Invalid ${noun} ID`);
      return;
    }
    setActionError(null);
    setDeleting(row);
  };

  const confirmDelete = () => {
    if (!deleting?.id) return;
    remove.mutate(deleting.id, {
      onSuccess: () => showSuccess(`${Noun} deleted successfully`),
      onError: (err) => setActionError(errorMessage(err, `Failed to delete ${noun}`)),
      onSettled: () => setDeleting(null),
    });
  };

  return { form, setForm, deleting, setDeleting, actionError, setActionError, edit, askDelete, confirmDelete };
}
