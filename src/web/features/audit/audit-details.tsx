import { Code, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import type { AuditEntry } from '../../../contract/audit';
import { formatDateTime } from '../../lib/format';

function Snapshot({ label, value }: { label: string; value: unknown }) {
  return (
    <Stack gap={4}>
      <Text fw={600} size="sm">
        {label}
      </Text>
      <Code block mah={360} style={{ overflow: 'auto' }}>
        {value === null || value === undefined ? '—' : JSON.stringify(value, null, 2)}
      </Code>
    </Stack>
  );
}

/** Before and after of one change, side by side. */
export function AuditDetails({ entry, onClose }: { entry: AuditEntry | null; onClose: () => void }) {
  return (
    <Modal opened={entry !== null} onClose={onClose} title="Change details" size="xl" centered>
      {entry && (
        <Stack>
          <Text size="sm" c="dimmed">
            {entry.action} {entry.entity} {entry.entityId ?? ''} by {entry.actorName ?? 'system'} on{' '}
            {formatDateTime(entry.createdAt)}
          </Text>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Snapshot label="Before" value={entry.before} />
            <Snapshot label="After" value={entry.after} />
          </SimpleGrid>
        </Stack>
      )}
    </Modal>
  );
}
