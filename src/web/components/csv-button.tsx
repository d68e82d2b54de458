import { useState } from 'react';
import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { errorMessage } from '../lib/api-client';
import { downloadCsv } from '../lib/download-csv';

interface CsvButtonProps {
  /** API path with the current filters, e.g. /wallets/adminRevenue.csv?fromDate=… */
  path: string;
  filename: string;
  disabled?: boolean;
  onError: (message: string) => void;
}

/** "Download CSV": the whole filtered range, streamed by the server, not just the visible page. */
export function CsvButton({ path, filename, disabled, onError }: CsvButtonProps) {
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      await downloadCsv(path, filename);
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
