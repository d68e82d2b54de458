import { useState } from 'react';
import { Alert, Button, FileButton, Group, Paper, SimpleGrid, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconBuildingBank, IconEye, IconSend, IconUpload, IconUserExclamation, IconClockHour4 } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import {
  BANK_BATCH_STATUS_LABELS, BANK_LINE_SOURCE_LABELS, type BankBatch, type BankBatchStatus, type BankLine,
  type ImportSummary, type TransitLine,
} from '../../../contract/bank-transfers';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CsvButton } from '../../components/csv-button';
import type { Column } from '../../components/data-table';
import { QueryTable } from '../../components/query-table';
import { ErrorAlert, messageOf } from '../../components/error-alert';
import { RowAction, RowActions } from '../../components/row-actions';
import { StatusBadge, type Tone } from '../../components/status-badge';
import { SuccessBanner, useSuccessBanner } from '../../components/success-banner';
import { SummaryCard } from '../../components/summary-card';
import { TruncatedText } from '../../components/truncated-text';
import { formatCount, formatDateTime, formatINR } from '../../lib/format';
import { useIdempotencyKey } from '../../lib/money-request';
import { PageTitle } from '../../components/page-title';
import {
  bankTransfersApi, BATCHES_PAGE_SIZE, batchesQuery, batchQuery, gatherableQuery, inTransitQuery, LINES_PAGE_SIZE, linesQuery,
  useCancelBatch, useGather, useImportResponse, useRequestRelease,
} from './bank-transfers.api';
import { BankLineBadge, returnAwaits } from './line-badge';

const BATCH_TONES: Record<BankBatchStatus, Tone> = { draft: 'neutral', pending_release: 'warning', released: 'info', closed: 'positive', cancelled: 'negative' };

/** A batch's state; one whose release request was rejected or expired no longer awaits anything: it may be released again or cancelled. */
const batchBadge = (b: Pick<BankBatch, 'status' | 'approvalStatus'>) =>
  b.status === 'pending_release' && b.approvalStatus !== null && b.approvalStatus !== 'pending'
    ? <StatusBadge tone="negative">{`Release ${b.approvalStatus}`}</StatusBadge>
    : <StatusBadge tone={BATCH_TONES[b.status]}>{BANK_BATCH_STATUS_LABELS[b.status]}</StatusBadge>;

const lineColumns: Column<BankLine>[] = [
  { header: 'Reference', cell: (l) => l.reference },
  { header: 'Source', cell: (l) => BANK_LINE_SOURCE_LABELS[l.source] },
  { header: 'Member', cell: (l) => <TruncatedText maxWidth={180}>{`${l.userName ?? ''} (${l.userId})`}</TruncatedText> },
  { header: 'Beneficiary', cell: (l) => <TruncatedText maxWidth={160}>{l.beneficiaryName}</TruncatedText> },
  { header: 'Account', cell: (l) => `${l.accountNumber} · ${l.ifsc}` },
  { header: 'Amount', cell: (l) => formatINR(l.amount) },
  { header: 'Status', cell: (l) => <BankLineBadge line={l} /> },
  { header: 'UTR / Reason', cell: (l) => <TruncatedText maxWidth={180}>{l.utr ?? l.returnReason ?? '—'}</TruncatedText> },
];

/** A batch's lines, its release and its instruction file. */
function BatchDetail({ id, onBack, onError, onDone }: { id: number; onBack: () => void; onError: (m: string) => void; onDone: (m: string) => void }) {
  const [page, setPage] = useState(1);
  const batch = useQuery(batchQuery(id));
  const lines = useQuery(linesQuery(id, page));
  const release = useRequestRelease();
  const cancel = useCancelBatch();
  const [asking, setAsking] = useState(false);
  const { keyFor, settle } = useIdempotencyKey();
  const b = batch.data;
  // A draft, or a batch whose release was rejected or expired: released again, or cancelled.
  const canRelease = b && (b.status === 'draft' || (b.status === 'pending_release' && b.approvalStatus !== 'pending'));
  const canCancel = canRelease;
  const hasFile = b && (b.status === 'released' || b.status === 'closed');
  const askRelease = () => {
    release.mutate({ id, key: keyFor({ release: id }) }, {
      onSuccess: (answer) => onDone(answer.message),
      onError: (err) => { settle(err); onError(messageOf(err)); },
    });
  };
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Group>
          <Button variant="subtle" leftSection={<IconArrowLeft size={16} aria-hidden />} onClick={onBack}>All batches</Button>
          <Title order={2} size="h3">Batch {id}</Title>
          {b && batchBadge(b)}
        </Group>
        <Group>
          {canCancel && (
            <Button variant="default" color="red" onClick={() => setAsking(true)} loading={cancel.isPending}>
              Cancel batch
            </Button>
          )}
          {canRelease && (
            <Button leftSection={<IconSend size={16} aria-hidden />} onClick={askRelease} loading={release.isPending}>
              Release
            </Button>
          )}
          {hasFile && (
            <CsvButton endpoint={bankTransfersApi.file} input={{ params: { id }, query: {} }} filename={b?.template === 'hdfc' ? `bank-batch-${id}-hdfc.csv` : `bank-batch-${id}.csv`} onError={onError} />
          )}
        </Group>
      </Group>
      <ConfirmDialog
        opened={asking}
        title={`Cancel batch ${id}?`}
        message="Its transfers leave this draft and are gathered again by the next batch. Nothing has been sent and no money moves."
        confirmLabel="Cancel batch"
        busy={cancel.isPending}
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false);
          cancel.mutate(id, { onSuccess: (answer) => onDone(answer.message ?? `Bank batch ${id} cancelled`), onError: (err) => onError(messageOf(err)) });
        }}
      />
      {batch.error && <ErrorAlert error={batch.error} onRetry={() => batch.refetch()} />}
      {b && (
        <Paper withBorder p="md">
          <SimpleGrid cols={{ base: 2, md: 4 }}>
            <Text size="sm"><b>Lines:</b> {formatCount(b.lines)} · <b>Total:</b> {formatINR(b.total)}</Text>
            <Text size="sm"><b>Settled:</b> {formatCount(b.settledLines)} ({formatINR(b.settled)})</Text>
            <Text size="sm"><b>Returned:</b> {formatCount(b.returnedLines)} ({formatINR(b.returned)})</Text>
            <Text size="sm"><b>Open:</b> {formatCount(b.openLines)}</Text>
            <Text size="sm"><b>Gathered by:</b> {b.createdByName ?? b.createdBy} · {formatDateTime(b.createdAt)}</Text>
            <Text size="sm"><b>Released by:</b> {b.releasedByName ?? '—'}{b.releasedAt ? ` · ${formatDateTime(b.releasedAt)}` : ''}</Text>
            <Text size="sm"><b>Release request:</b> {b.approvalId ? `${b.approvalId} (${b.approvalStatus})` : '—'}</Text>
          </SimpleGrid>
          {b.status === 'pending_release' && b.approvalStatus === 'pending' && (
            <Text size="sm" c="dimmed" mt="xs">A second operator with money approval releases it on the Approvals screen.</Text>
          )}
        </Paper>
      )}
      <QueryTable
        query={lines}
        page={page}
        onPage={setPage}
        limit={LINES_PAGE_SIZE}
        caption={`Lines of bank batch ${id}`}
        columns={lineColumns}
        rowKey={(l) => l.id}
        empty="This batch has no lines."
      />
    </Stack>
  );
}

function ImportResult({ summary }: { summary: ImportSummary }) {
  return (
    <Paper withBorder p="md">
      {summary.held > 0 && (
        <Alert color="yellow" title="Returns await approval" mb="sm">
          {`The bank returned ${formatCount(summary.held)} ${summary.held === 1 ? 'transfer' : 'transfers'} (${formatINR(summary.heldAmount)}): the money goes back to the members’ wallets once a second operator approves request ${summary.returnsApprovalId} on the Approvals screen.`}
        </Alert>
      )}
      <Text fw={600}>
        Settled {formatCount(summary.settled)} ({formatINR(summary.settledAmount)}), returned {formatCount(summary.returned)} ({formatINR(summary.returnedAmount)}),
        {summary.held > 0 ? ` returns awaiting approval ${formatCount(summary.held)} (${formatINR(summary.heldAmount)}),` : ''}
        {' '}duplicates {formatCount(summary.duplicates)}, unknown {formatCount(summary.unknown)}, still in transit {formatCount(summary.pending)}
        {summary.conflicts ? `, conflicts ${formatCount(summary.conflicts)}` : ''}{summary.notReleased ? `, not released ${formatCount(summary.notReleased)}` : ''}
      </Text>
      {summary.problems.length > 0 && (
        <Table mt="sm" striped>
          <Table.Caption>Lines of the file that settled or returned nothing{summary.problemsCapped ? ' (the first 1,000)' : ''}</Table.Caption>
          <Table.Thead><Table.Tr><Table.Th>Line</Table.Th><Table.Th>Reference</Table.Th><Table.Th>What happened</Table.Th></Table.Tr></Table.Thead>
          <Table.Tbody>
            {summary.problems.map((p) => (
              <Table.Tr key={`${p.line}-${p.reference}`}><Table.Td>{p.line}</Table.Td><Table.Td>{p.reference || '—'}</Table.Td><Table.Td>{p.message}</Table.Td></Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}

const transitColumns: Column<TransitLine>[] = [
  { header: 'Age (days)', cell: (l) => formatCount(l.ageDays) },
  { header: 'Batch', cell: (l) => l.batchId },
  { header: 'In transit since', cell: (l) => formatDateTime(l.inTransitSince) },
  ...lineColumns.filter((c) => c.header !== 'Status' && c.header !== 'UTR / Reason'),
  {
    header: 'Bank answer',
    cell: (l) => (returnAwaits(l)
      ? <StatusBadge tone="warning">{`Return awaits approval (request ${l.returnApprovalId})`}</StatusBadge>
      : <TruncatedText maxWidth={180}>{l.returnReason ?? '—'}</TruncatedText>),
  },
];

/** Bank Transfers (issue 25): approved withdrawals out to members' banks, and back when the bank returns them. */
export default function BankTransfersPage() {
  const [tab, setTab] = useState<string | null>('batches');
  const [page, setPage] = useState(1);
  const [transitPage, setTransitPage] = useState(1);
  const [open, setOpen] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [banner, showBanner] = useSuccessBanner();
  const [summary, setSummary] = useState<ImportSummary | null>(null);
  const gatherable = useQuery(gatherableQuery());
  const batches = useQuery(batchesQuery(page));
  const transit = useQuery({ ...inTransitQuery(transitPage), enabled: tab === 'transit' });
  const gather = useGather();
  const importFile = useImportResponse();

  const doGather = () => {
    setError(null);
    gather.mutate(undefined, {
      onSuccess: (answer) => { showBanner(answer.message ?? 'Batch gathered'); setOpen(answer.data.id); },
      onError: (err) => setError(messageOf(err)),
    });
  };
  const doImport = (file: File | null) => {
    if (!file) return;
    setError(null);
    setSummary(null);
    importFile.mutate(file, {
      onSuccess: (answer) => { showBanner(answer.message); setSummary(answer.data); },
      onError: (err) => setError(messageOf(err)),
    });
  };

  const batchColumns: Column<BankBatch>[] = [
    { header: 'Batch', cell: (b) => b.id },
    { header: 'Status', cell: (b) => batchBadge(b) },
    { header: 'Lines', cell: (b) => formatCount(b.lines) },
    { header: 'Total', cell: (b) => formatINR(b.total) },
    { header: 'Created by', cell: (b) => <TruncatedText maxWidth={140}>{b.createdByName ?? String(b.createdBy)}</TruncatedText> },
    { header: 'Created', cell: (b) => formatDateTime(b.createdAt) },
    { header: 'Released by', cell: (b) => <TruncatedText maxWidth={140}>{b.releasedByName ?? '—'}</TruncatedText> },
    { header: 'Released', cell: (b) => (b.releasedAt ? formatDateTime(b.releasedAt) : '—') },
    {
      header: 'Actions',
      cell: (b) => (
        <RowActions>
          <RowAction label="Open" name={`Open bank batch ${b.id}`} icon={<IconEye size={18} />} onClick={() => setOpen(b.id)} />
        </RowActions>
      ),
    },
  ];

  const g = gatherable.data;
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start">
        <PageTitle title="Bank Transfers" subtitle="Approved withdrawals sent to members' banks in batches, released by a second operator" />
        <Group>
          <FileButton onChange={doImport} accept=".csv,text/csv,text/plain">
            {(props) => (
              <Button {...props} variant="default" leftSection={<IconUpload size={16} aria-hidden />} loading={importFile.isPending}>
                Import bank response
              </Button>
            )}
          </FileButton>
          <Button leftSection={<IconBuildingBank size={16} aria-hidden />} onClick={doGather} loading={gather.isPending} disabled={!g || g.count === 0}>
            Gather withdrawals
          </Button>
        </Group>
      </Group>
      <SuccessBanner message={banner} />
      {error && <ErrorAlert error={new Error(error)} onClose={() => setError(null)} />}
      {gatherable.error && <ErrorAlert error={gatherable.error} onRetry={() => gatherable.refetch()} />}
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <SummaryCard label="Withdrawals to send" value={g ? formatCount(g.count) : null} icon={IconSend} color="indigo" />
        <SummaryCard label="Amount to send" value={g ? formatINR(g.total) : null} icon={IconBuildingBank} color="teal" />
        <SummaryCard label="Without a bank account" value={g ? `${formatCount(g.notGatherableCount)} · ${formatINR(g.notGatherableTotal)}` : null} icon={IconUserExclamation} color="orange" />
      </SimpleGrid>
      {g && g.notGatherable.length > 0 && (
        <Alert color="orange" title="Not gatherable">
          {g.notGatherable.slice(0, 5).map((n) => (
            <Text size="sm" key={n.ledgerEntryId}>{n.userName ?? n.userId} ({n.userId}): {formatINR(n.amount)} — {n.reason}</Text>
          ))}
          {g.notGatherableCount > 5 && <Text size="sm">… and {formatCount(g.notGatherableCount - 5)} more</Text>}
        </Alert>
      )}
      {summary && <ImportResult summary={summary} />}
      <Tabs value={tab} onChange={(v) => { setTab(v); setOpen(null); }}>
        <Tabs.List>
          <Tabs.Tab value="batches" leftSection={<IconBuildingBank size={16} aria-hidden />}>Batches</Tabs.Tab>
          <Tabs.Tab value="transit" leftSection={<IconClockHour4 size={16} aria-hidden />}>In transit</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="batches" pt="md">
          {open !== null ? (
            <BatchDetail id={open} onBack={() => setOpen(null)} onError={setError} onDone={showBanner} />
          ) : (
            <QueryTable
              query={batches}
              page={page}
              onPage={setPage}
              limit={BATCHES_PAGE_SIZE}
              caption="Bank transfer batches"
              columns={batchColumns}
              rowKey={(b) => b.id}
              empty="No bank transfer batch yet: gather the approved withdrawals to make one."
            />
          )}
        </Tabs.Panel>
        <Tabs.Panel value="transit" pt="md">
          <Text size="sm" c="dimmed" mb="sm">Transfers released to the bank and not yet settled or returned, oldest first.</Text>
          <QueryTable
            query={transit}
            page={transitPage}
            onPage={setTransitPage}
            limit={LINES_PAGE_SIZE}
            // Not fetched until the tab opens: no placeholder rows before.
            loading={transit.isLoading || transit.isPlaceholderData}
            caption="Bank transfers in transit"
            columns={transitColumns}
            rowKey={(l) => l.id}
            empty="Nothing is in transit: every released transfer has been answered by the bank."
          />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
