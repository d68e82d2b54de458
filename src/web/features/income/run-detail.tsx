import { useState, type ReactNode } from 'react';
import { Drawer, Group, Paper, Progress, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { runsApi, type Run, type RunDetail as Detail, type RunLine } from '../../../contract/income-runs';
import { CsvButton } from '../../components/csv-button';
import { PrintButton } from '../../components/print-button';
import { DataTable, type Column } from '../../components/data-table';
import { ErrorAlert } from '../../components/error-alert';
import { StatusBadge } from '../../components/status-badge';
import { TruncatedText } from '../../components/truncated-text';
import { formatCount, formatDateTime, formatINR } from '../../lib/format';
import { kindLabel, periodText, progressText, settingsLines, stateLines, STATUS_LABELS, STATUS_TONES, type Line } from './run-format';
import { LINES_PAGE_SIZE, runDetailQuery, runLinesQuery } from './runs.api';

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

/** The reversal's record as labelled fields, names for ids (issue 24). */
function reversalLines(r: NonNullable<Detail['reversal']>): Line[] {
  return [
    { label: 'Reason', value: r.remarks || '—' },
    { label: 'Requested by', value: r.requestedByName ?? '—' },
    { label: 'Approved by a second operator', value: r.approved ? 'Yes' : 'No (below the approval threshold)' },
    { label: 'Lines reversed', value: formatCount(r.lines) },
    { label: 'Members', value: formatCount(r.members) },
    { label: 'Shortfall', value: formatINR(r.shortfall) },
  ];
}

const withoutReversal = (state: Record<string, unknown>) => Object.fromEntries(Object.entries(state).filter(([k]) => k !== 'reversal'));

const LINE_COLUMNS: Column<RunLine>[] = [
  {
    header: 'Member',
    cell: (l) => (
      <div>
        <TruncatedText maxWidth={200}>{l.userName}</TruncatedText>
        <Text size="xs" c="dimmed">{`ID: ${l.userId}`}</Text>
      </div>
    ),
  },
  {
    header: 'Status',
    cell: (l) => (
      <Stack gap={2} align="flex-start">
        <StatusBadge tone={l.status === 'Failure' ? 'negative' : l.status === 'Reversed' ? 'neutral' : 'positive'}>{l.status}</StatusBadge>
        {l.reason && l.status === 'Failure' && <Text size="xs" c="dimmed">{l.reason}</Text>}
        {l.paidNowByName && <Text size="xs" c="dimmed">{`Paid now by ${l.paidNowByName}`}</Text>}
        {l.reversedStatus && <Text size="xs" c="dimmed">{`Was ${l.reversedStatus === 'Failure' ? 'an unpaid failure' : 'paid'}`}</Text>}
      </Stack>
    ),
  },
  { header: 'Gross', cell: (l) => formatINR(l.gross) },
  { header: 'TDS', cell: (l) => formatINR(l.tds) },
  { header: 'Admin charge', cell: (l) => formatINR(l.adminCharge) },
  { header: 'Net', cell: (l) => formatINR(l.net) },
];

/** A run's lines per member, paged by the server, and their export. */
function RunLines({ runId }: { runId: number }) {
  const [page, setPage] = useState(1);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const lines = useQuery(runLinesQuery(runId, page));
  return (
    <Stack gap="xs">
      <Group justify="flex-end" className="no-print">
        <CsvButton endpoint={runsApi.linesCsv} input={{ params: { id: runId } }} filename={`run-${runId}-lines.csv`} onError={setDownloadError} />
      </Group>
      {downloadError && <ErrorAlert error={downloadError} />}
      {lines.isError && <ErrorAlert error={lines.error} prefix="Failed to load the lines: " onRetry={() => lines.refetch()} />}
      <DataTable
        caption={`Lines of run ${runId} per member`}
        columns={LINE_COLUMNS}
        rows={lines.data?.data}
        rowKey={(l) => `${l.userId}-${l.status}-${l.net}`}
        loading={lines.isPending || lines.isPlaceholderData}
        empty={<Text size="sm" c="dimmed">This run wrote no lines</Text>}
        paging={lines.data ? { page, limit: LINES_PAGE_SIZE, total: lines.data.total, onPage: setPage } : undefined}
      />
    </Stack>
  );
}

function Body({ run }: { run: Detail }) {
  const t = run.totals;
  const totals: Line[] = [
    { label: 'Units', value: progressText(t.done, t.total) },
    { label: 'Paid', value: formatCount(t.paid) },
    { label: 'Failed', value: formatCount(t.failed) },
    { label: 'Gross of the paid lines', value: formatINR(t.gross) },
    { label: 'TDS', value: formatINR(t.tds) },
    { label: 'Admin charge', value: formatINR(t.adminCharge) },
    { label: 'Net (paid to members)', value: formatINR(t.net) },
    { label: 'Failed, net (awaiting Pay Now)', value: formatINR(t.failedAmount) },
    { label: 'Shortfall of the reversal', value: formatINR(run.shortfall) },
  ];
  const who: Line[] = [
    { label: 'Started by', value: run.startedByName ?? 'Schedule' },
    { label: 'Started at', value: formatDateTime(run.startedAt) },
    { label: 'Finished at', value: run.finishedAt ? formatDateTime(run.finishedAt) : 'Not finished' },
    ...(run.reversedAt ? [{ label: 'Reversed at', value: formatDateTime(run.reversedAt) }] : []),
    ...(run.reversedBy !== null ? [{ label: run.reversal?.approved ? 'Reversal approved by' : 'Reversed by', value: run.reversedByName ?? 'A removed account' }] : []),
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
      {run.reversal && (
        <Section title="Reversal">
          <Lines caption="Reversal" lines={reversalLines(run.reversal)} />
        </Section>
      )}
      <Section title="Lines per member">
        <RunLines runId={run.runId} />
      </Section>
      <Section title="Settings it used">
        <Lines caption="Settings it used" lines={settingsLines(run.settings)} />
      </Section>
      <Section title="State">
        <Lines caption="State" lines={stateLines(withoutReversal(run.state))} />
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
    <Drawer opened onClose={onClose} position="right" size="xl" title={`Run #${runId}`}
      styles={{ title: { fontSize: 'var(--mantine-h4-font-size)', fontWeight: 700 } }}>
      {detail.isError && <ErrorAlert error={detail.error} prefix="Failed to load the run: " withIcon onRetry={() => detail.refetch()} />}
      {detail.isPending && (
        <Stack gap="sm" role="status" aria-label="Loading the run">
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} height={18} radius="sm" />
          ))}
        </Stack>
      )}
      {detail.data && (
        <>
          {/* Printing the run's details: the drawer alone, laid out on the page (the list behind it is left out). */}
          <style media="print">{`
            .mantine-AppShell-main, .mantine-Drawer-overlay, .mantine-Drawer-close { display: none !important; }
            .mantine-Drawer-inner { position: static !important; }
            .mantine-Drawer-content { position: static !important; box-shadow: none !important; max-height: none !important; overflow: visible !important; flex: none !important; width: 100% !important; }
          `}</style>
          <Group justify="flex-end" className="no-print" mb="xs">
            <PrintButton label="Print run" />
          </Group>
          <Body run={detail.data.data} />
        </>
      )}
    </Drawer>
  );
}
