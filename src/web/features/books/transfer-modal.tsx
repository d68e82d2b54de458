import { useState } from 'react';
import { Anchor, Group, Modal, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { TransferDetail, TransferLine } from '../../../contract/books';
import { DataTable, type Column } from '../../components/data-table';
import { ErrorAlert } from '../../components/error-alert';
import { StatusBadge } from '../../components/status-badge';
import { errorMessage } from '../../lib/api-client';
import { formatCount, formatDateTime } from '../../lib/format';
import { memberPath, PATHS, runPath } from '../../lib/paths';
import { Amount } from './money-sides';
import { TRANSFER_LINES_PAGE_SIZE, transferQuery } from './books.api';

const LINE_COLUMNS: Column<TransferLine>[] = [
  { header: 'Line', cell: (l) => `#${l.id}`, width: 90 },
  {
    header: 'Member',
    cell: (l) => (
      <Anchor component={Link} to={memberPath(l.member.userId)} size="sm">
        {l.member.name ?? `Member #${l.member.userId}`}
      </Anchor>
    ),
  },
  { header: 'Kind', cell: (l) => l.kindLabel },
  { header: 'Counter-account', cell: (l) => l.counterAccount },
  { header: 'Debit', cell: (l) => <Amount value={l.debit} /> },
  { header: 'Credit', cell: (l) => <Amount value={l.credit} /> },
];

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </div>
  );
}

/** What caused the transfer, with links where the panel has a screen for it. */
function Cause({ t, onTransfer }: { t: TransferDetail; onTransfer: (id: number) => void }) {
  const { cause } = t;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      <Fact label="Date & Time">{formatDateTime(t.dateTime)}</Fact>
      <Fact label="Caused by">{cause.text}</Fact>
      {cause.run && (
        <Fact label="Run">
          <Anchor component={Link} to={runPath(cause.run.runId)} size="sm">{`Run #${cause.run.runId}`}</Anchor>
        </Fact>
      )}
      {cause.approvalId !== null && (
        <Fact label="Approval">
          <Anchor component={Link} to={PATHS.approvals} size="sm">{`Request #${cause.approvalId}`}</Anchor>
        </Fact>
      )}
      {cause.bankBatchId !== null && <Fact label="Bank batch">{`#${cause.bankBatchId}`}</Fact>}
      {cause.batchId !== null && <Fact label="Income batch">{`#${cause.batchId}`}</Fact>}
      {cause.operator && <Fact label="Operator">{cause.operator.name ?? `#${cause.operator.userId}`}</Fact>}
      {t.corrects !== null && (
        <Fact label="Corrects">
          <Anchor component="button" type="button" size="sm" onClick={() => onTransfer(t.corrects!)}>{`Transfer #${t.corrects}`}</Anchor>
        </Fact>
      )}
      {t.correctedBy.length > 0 && (
        <Fact label="Corrected by">
          <Group gap="xs">
            {t.correctedBy.map((id) => (
              <Anchor key={id} component="button" type="button" size="sm" onClick={() => onTransfer(id)}>{`Transfer #${id}`}</Anchor>
            ))}
          </Group>
        </Fact>
      )}
    </SimpleGrid>
  );
}

function TransferBody({ id, onTransfer }: { id: number; onTransfer: (id: number) => void }) {
  const [page, setPage] = useState(1);
  const transfer = useQuery(transferQuery(id, page));
  if (transfer.isPending) return <Skeleton h={220} aria-label="Loading the transfer" />;
  if (transfer.isError) {
    return <ErrorAlert error={errorMessage(transfer.error, 'Failed to load the transfer. Please try again.')} onRetry={() => transfer.refetch()} />;
  }
  const t = transfer.data;
  const companyTotal = t.companyLegs.reduce((sum, l) => sum + Math.round(((l.credit ?? 0) - (l.debit ?? 0)) * 100), 0);
  const balanced = companyTotal + Math.round(t.memberTotal * 100) === 0;
  return (
    <Stack gap="md">
      <Group gap="sm">
        <Text fw={600}>{t.kindLabel}</Text>
        {t.beforeTheBooks && <StatusBadge tone="neutral">Before the books</StatusBadge>}
        <StatusBadge tone={balanced ? 'positive' : 'negative'}>{balanced ? 'Legs sum to zero' : 'Legs do not sum to zero'}</StatusBadge>
      </Group>
      {t.description && <Text size="sm">{t.description}</Text>}
      <Cause t={t} onTransfer={onTransfer} />
      <Title order={3} size="h5">
        Company legs
      </Title>
      <Table withTableBorder verticalSpacing={6}>
        <caption className="visually-hidden">Company legs of transfer {t.id}</caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Account</Table.Th>
            <Table.Th scope="col" ta="right">Debit</Table.Th>
            <Table.Th scope="col" ta="right">Credit</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {t.companyLegs.map((l) => (
            <Table.Tr key={l.account}>
              <Table.Th scope="row" fw={500}>{l.name}</Table.Th>
              <Table.Td><Amount value={l.debit} /></Table.Td>
              <Table.Td><Amount value={l.credit} /></Table.Td>
            </Table.Tr>
          ))}
          {t.memberLinesTotal > 0 && (
            <Table.Tr>
              <Table.Th scope="row" fw={500}>{`Member wallets (${formatCount(t.memberLinesTotal)} ${t.memberLinesTotal === 1 ? 'line' : 'lines'})`}</Table.Th>
              <Table.Td><Amount value={t.memberTotal < 0 ? -t.memberTotal : null} /></Table.Td>
              <Table.Td><Amount value={t.memberTotal > 0 ? t.memberTotal : null} /></Table.Td>
            </Table.Tr>
          )}
          {t.companyLegs.length === 0 && t.memberLinesTotal === 0 && (
            <Table.Tr>
              <Table.Td colSpan={3}><Text c="dimmed" size="sm">No legs</Text></Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
      {t.memberLinesTotal > 0 && (
        <>
          <Title order={3} size="h5">
            Member lines
          </Title>
          <DataTable
            caption={`Member lines of transfer ${t.id}`}
            columns={LINE_COLUMNS}
            rows={t.memberLines}
            rowKey={(l) => l.id}
            loading={transfer.isPlaceholderData}
            empty={<Text c="dimmed">No member lines</Text>}
            paging={{ page, limit: TRANSFER_LINES_PAGE_SIZE, total: t.memberLinesTotal, onPage: setPage }}
          />
        </>
      )}
    </Stack>
  );
}

/** A transfer with all its legs (issue 25), over the Books screen; it may lead to the transfer it corrects or that corrects it. */
export function TransferModal({ id, onClose, onTransfer }: { id: number | null; onClose: () => void; onTransfer: (id: number) => void }) {
  return (
    <Modal opened={id !== null} onClose={onClose} title={id !== null ? `Transfer #${id}` : ''} size="xl">
      {id !== null && <TransferBody key={id} id={id} onTransfer={onTransfer} />}
    </Modal>
  );
}
