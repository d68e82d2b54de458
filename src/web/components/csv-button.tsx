import { useState } from 'react';
import { Button, Group, Stack } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { CallInput, Endpoint } from '../../contract/endpoint';
import { download, errorMessage } from '../lib/api-client';
import { ErrorAlert } from './error-alert';

interface CsvButtonProps<E extends Endpoint> {
  /** The contract's CSV export (an endpoint with `file: 'csv'`). */
  endpoint: E;
  /** Its query: the current filters. */
  input?: CallInput<E>;
  filename: string;
  disabled?: boolean;
  onError: (message: string) => void;
}

/** "Download CSV": the whole filtered range, streamed by the server, not just the visible page. */
export function CsvButton<E extends Endpoint>({ endpoint, input, filename, disabled, onError }: CsvButtonProps<E>) {
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      await download(endpoint as Endpoint, filename, input);
    } catch (err) {
      onError(errorMessage(err, 'Download failed'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="default" leftSection={<IconDownload size={16} aria-hidden />} onClick={run} loading={busy} disabled={disabled}>
      Download CSV
    </Button>
  );
}

/** A list's toolbar row: Download CSV on the right, and its failure (if any) under it, closable. */
export function CsvExport<E extends Endpoint>(props: Omit<CsvButtonProps<E>, 'onError'>) {
  const [error, setError] = useState<string | null>(null);
  return (
    <Stack gap="xs">
      <Group justify="flex-end">
        <CsvButton {...props} onError={setError} />
      </Group>
      <ErrorAlert error={error} onClose={() => setError(null)} />
    </Stack>
  );
}
