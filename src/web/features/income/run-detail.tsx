import type { ReactNode } from 'react';
import { Drawer, Group, Paper, Progress, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { Run, RunDetail as Detail } from '../../../contract/income';
import { DataTable, type Column } from '../../components/data-table';
import { ErrorAlert } from '../../components/error-alert';
import { StatusBadge } from '../../components/status-badge';
import { TruncatedText } from '../../components/truncated-text';
import { formatCount, formatDateTime, formatINR } from '../../lib/format';
import { kindLabel, periodText, progressText, settingsLines, stateLines, STATUS_LABELS, STATUS_TONES, type Line } from './run-format';
import { runDetailQuery } from './runs.api';

/** The progress bar of a run: done of total units, named for screen readers, with the count beside it. */
export function RunProgress({ run }: { run: Pick<Run, 'runId' | 'status' | 'totals'> }) {
  const { done, total } = run.totals;
  const percent = total > 0 ? Math.min(100, (done / total) * 100) : run.status === 'completed' ? 100 : 0;
  const text = progressText(done, total);
  return (
    <Stack gap={2} miw={110}>
      <Progress.Root
        size="md"
        role="progressbar"
        aria-label={`Progress of run ${run.runId}`}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        aria-valuetext={text}
      >
        <Progress.Section value={percent} withAria={false} color={STATUS_TONES[run.status] === 'negative' ? 'red' : 'indigo'} />
      </Progress.Root>
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {text}
      </Text>
    </Stack>
  );
}

function Lines({ caption, lines }: { caption: string; lines: Line[] }) {
  if (lines.length === 0) return <Text size="sm" c="dimmed">Nothing recorded</Text>;
  return (
    <Table withRowBorders={false} verticalSpacing={4}>
      <caption className="visually-hidden">{caption}</caption>
      <Table.Tbody>
        {lines.map((l) => (
          <Table.Tr key={l.label}>
            <Table.Th scope="row" fw={500} c="dimmed" w="40%">
              {l.label}
            </Table.Th>
            <Table.Td>{l.value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

type Shortfall = Detail['shortfalls'][number];
const SHORTFALL_COLUMNS: Column<Shortfall>[] = [
  {
    header: 'Member',
    cell: (s) => (
      <div>
        <TruncatedText maxWidth={220}>{s.userName}</TruncatedText>
        <Text size="xs" c="dimmed">{`ID: ${s.userId}`}</Text>
      </div>
    ),
  },
  { header: 'Not taken back', cell: (s) => formatINR(s.amount) },
  // Issue 22: the member's later credits settle it first (a recovery).
  { header: 'Recovered', cell: (s) => formatINR(s.recovered) },
  { header: 'Still owed', cell: (s) => formatINR(Math.round((s.amount - s.recovered) * 100) / 100) },
];

function Body({ run }: { run: Detail }) {
  const t = run.totals;
  const totals: Line[] = [
    { label: 'Units', value: progressText(t.done, t.total) },
    { label: 'Paid', value: formatCount(t.paid) },
    { label: 'Failed', value: formatCount(t.failed) },
    { label: 'Gross', value: formatINR(t.gross) },
    { label: 'Deductions (TDS + admin charge)', value: formatINR(t.deductions) },
    { label: 'Net', value: formatINR(t.net) },
    { label: 'Failed amount (Pay Now)', value: formatINR(t.failedAmount) },
    { label: 'Shortfall of the reversal', value: formatINR(run.shortfall) },
  ];
  const who: Line[] = [
    { label: 'Started by', value: run.startedByName ?? 'Schedule' },
    { label: 'Started at', value: formatDateTime(run.startedAt) },
    { label: 'Finished at', value: run.finishedAt ? formatDateTime(run.finishedAt) : 'Not finished' },
    ...(run.reversedAt ? [{ label: 'Reversed', value: `${formatDateTime(run.reversedAt)}${run.reversedBy === null ? '' : ` by operator ID ${run.reversedBy}`}` }] : []),
    ...(run.batchId === null ? [] : [{ label: 'Income batch', value: `#${run.batchId}` }]),
    { label: 'Settings version', value: run.settingsVersionId === null ? 'The defaults (never saved)' : `#${run.settingsVersionId}` },
  ];
  return (
    <Stack gap="md">
      <Group gap="sm">
        <StatusBadge tone={STATUS_TONES[run.status]}>{STATUS_LABELS[run.status]}</StatusBadge>
        <Text size="sm" c="dimmed">{`${kindLabel(run.kind)} · ${periodText(run)}`}</Text>
      </Group>
      {run.error && <ErrorAlert error={run.error} prefix="The run failed: " withIcon />}
      <RunProgress run={run} />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <Section title="Totals">
          <Lines caption="Totals" lines={totals} />
        </Section>
        <Section title="Run">
          <Lines caption="Run" lines={who} />
        </Section>
      </SimpleGrid>
      <Section title="Settings it used">
        <Lines caption="Settings it used" lines={settingsLines(run.settings)} />
      </Section>
      <Section title="State">
        <Lines caption="State" lines={stateLines(run.state)} />
      </Section>
      <Section title="Shortfalls">
        <DataTable
          caption={`Shortfalls of run ${run.runId}`}
          columns={SHORTFALL_COLUMNS}
          rows={run.shortfalls}
          rowKey={(s) => s.userId}
          empty={<Text size="sm" c="dimmed">No shortfalls: every reversed credit was taken back in full</Text>}
        />
        {run.shortfalls.length > 0 && (
          <Text size="xs" c="dimmed" mt="xs">
            A shortfall is a recovery the member owes: their next credits (payouts, level income, rewards, recharges) settle it first.
          </Text>
        )}
      </Section>
    </Stack>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="sm" component="section" aria-label={title}>
      <Title order={3} size="h5" mb="xs">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

/** The Details drawer of a run: every total, the settings it used, its state and shortfalls; polls while it works. */
export function RunDetailDrawer({ runId, onClose }: { runId: number; onClose: () => void }) {
  const detail = useQuery(runDetailQuery(runId));
  return (
    <Drawer opened onClose={onClose} position="right" size="xl" title={<Title order={2} size="h4">{`Run #${runId}`}</Title>}>
      {detail.isError && <ErrorAlert error={detail.error} prefix="Failed to load the run: " withIcon onRetry={() => detail.refetch()} />}
      {detail.isPending && (
        <Stack gap="sm" role="status" aria-label="Loading the run">
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} height={18} radius="sm" />
          ))}
        </Stack>
      )}
      {detail.data && <Body run={detail.data.data} />}
    </Drawer>
  );
}
