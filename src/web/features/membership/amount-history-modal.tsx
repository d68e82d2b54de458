import { Badge, Group, Loader, Modal, Paper, ScrollArea, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { Member } from '../../../contract/membership';
import { errorMessage } from '../../lib/api-client';
import { formatDateTime, formatINR } from '../../lib/format';
import { amountHistoryQuery } from './membership.api';
import { ErrorAlert } from '../../components/error-alert';

export function AmountHistoryModal({ member, onClose }: { member: Member | null; onClose: () => void }) {
  return (
    <Modal opened={member !== null} onClose={onClose} size="lg" centered title={member ? `Amount History: ${member.fullName}` : ''}>
      {member && <History userId={member.userId} />}
    </Modal>
  );
}

function History({ userId }: { userId: number }) {
  const history = useQuery(amountHistoryQuery(userId));
  if (history.isPending) {
    return (
      <Group justify="center" py="xl">
        <Loader size="sm" aria-label="Loading amount history" />
      </Group>
    );
  }
  if (history.isError) {
    return (
      <ErrorAlert error={`Failed to load user amount history: ${errorMessage(history.error, history.error.message)}`} />
    );
  }
  const entries = history.data.history;
  return (
    <Stack>
      <Paper withBorder p="md" radius="md">
        <Text size="sm" c="dimmed">
          Current Amount
        </Text>
        <Text size="xl" fw={700}>
          {formatINR(history.data.currentAmount)}
        </Text>
      </Paper>
      <Text fw={600}>{`Payment History (${entries.length} transactions)`}</Text>
      <ScrollArea.Autosize mah={360} viewportProps={{ tabIndex: 0, 'aria-label': 'Payment history' }}>
        <Stack gap="xs">
          {entries.map((e, i) => {
            const { type } = e;
            return (
              <Paper key={`${e.id}-${i}`} withBorder p="sm" radius="sm">
                <Group justify="space-between" wrap="nowrap">
                  <div>
                    <Text size="sm" fw={500}>
                      {e.label}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {formatDateTime(e.date)}
                      {e.transactionId ? ` · ${e.transactionId}` : ''}
                    </Text>
                  </div>
                  <Group gap="xs" wrap="nowrap">
                    <Badge color={type === 'credit' ? 'teal' : 'red'} variant="light">
                      {type}
                    </Badge>
                    <Text fw={600} c={type === 'credit' ? 'teal' : 'red'}>
                      {`${type === 'credit' ? '+' : '-'}${formatINR(Math.abs(e.amount))}`}
                    </Text>
                  </Group>
                </Group>
              </Paper>
            );
          })}
        </Stack>
      </ScrollArea.Autosize>
    </Stack>
  );
}
