import { useState } from 'react';
import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { ledgerKindLabel, walletApi, type WalletTransaction } from '../../../contract/wallet';
import { ApprovalNotice } from '../../components/approval-notice';
import { DataTable, type Column } from '../../components/data-table';
import { StatusBadge } from '../../components/status-badge';
import { TruncatedText } from '../../components/truncated-text';
import { useListState } from '../../components/use-url-state';
import { SuccessBanner, useSuccessBanner } from '../../components/success-banner';
import { errorMessage } from '../../lib/api-client';
import { formatAmount, formatDateTime } from '../../lib/format';
import { CsvButton } from '../../components/csv-button';
import { TransactionModal } from './transaction-modal';
import { WalletFilters } from './wallet-filters';
import { PAGE_SIZE, WALLET_FILTERS, walletQueryOf, walletTransactionsQuery } from './wallet.api';

/** Credit or debit: as the server says (issue 24: a kind can go both ways); a spec server's rows by their type. */
const direction = (t: WalletTransaction) => t.type ?? (t.transactionType === 'wallet_withdrawal' ? 'debit' : 'credit');

/** Spec §2: Recharge / Withdrawal badges; every other kind of the ledger in words (issue 24). */
const typeLabel = (kind: string) =>
  kind === 'wallet_recharge' ? 'Recharge' : kind === 'wallet_withdrawal' ? 'Withdrawal' : ledgerKindLabel(kind);
const typeTone = (t: WalletTransaction) =>
  t.transactionType === 'wallet_recharge' ? 'positive' : t.transactionType === 'wallet_withdrawal' ? 'warning' : direction(t) === 'credit' ? 'info' : 'neutral';

const COLUMNS: Column<WalletTransaction>[] = [
  {
    header: 'User',
    cell: (t) => (
      <div>
        <TruncatedText fw={500} maxWidth={260}>
          {t.fullName}
        </TruncatedText>
        <Text size="xs" c="dimmed">{`ID: ${t.userId}`}</Text>
      </div>
    ),
  },
  {
    header: 'Amount',
    sort: 'amount',
    cell: (t) => {
      const credit = direction(t) === 'credit';
      return (
        <Text size="sm" fw={600} c={credit ? 'teal' : 'red'}>
          {`${credit ? '+' : '-'}${formatAmount(t.amount)}`}
        </Text>
      );
    },
  },
  {
    header: 'Type',
    cell: (t) => <StatusBadge tone={typeTone(t)}>{typeLabel(t.transactionType)}</StatusBadge>,
  },
  { header: 'Date & Time', sort: 'createdAt', cell: (t) => formatDateTime(t.dateTime) },
];

export default function WalletPage() {
  // Filters, order and page live in the address: a reload or a shared link shows the same rows.
  const { filters, setFilters, page, setPage } = useListState(WALLET_FILTERS);
  const [filterKey, setFilterKey] = useState(0);
  const [adding, setAdding] = useState(false);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const [success, showSuccess] = useSuccessBanner();
  const [awaitingApproval, setAwaitingApproval] = useState<string | null>(null);
  const transactions = useQuery(walletTransactionsQuery(filters, page));
  const data = transactions.data;

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1} size="h2">
          User Wallet
        </Title>
        <Group gap="sm">
          <CsvButton endpoint={walletApi.historyCsv} input={{ query: walletQueryOf(filters) }} filename="wallet-transactions.csv" onError={setDownloadError} />
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>
            Add User
          </Button>
        </Group>
      </Group>
      <SuccessBanner message={success} />
      <ApprovalNotice message={awaitingApproval} onClose={() => setAwaitingApproval(null)} />
      <WalletFilters
        key={filterKey}
        view={filters}
        onChange={setFilters}
        onClear={() => {
          setFilters({ ...WALLET_FILTERS, sort: filters.sort });
          setFilterKey((k) => k + 1);
        }}
      />
      {(transactions.isError || downloadError) && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
          {transactions.isError ? errorMessage(transactions.error, 'Failed to load wallet transactions') : downloadError}
        </Alert>
      )}
      <DataTable
        caption="Wallet transactions"
        columns={COLUMNS}
        rows={data?.data}
        rowKey={(t) => t.id}
        // Another page, filter or order loading: placeholder rows, never the previous rows.
        loading={transactions.isPending || transactions.isPlaceholderData}
        sort={{ value: filters.sort, onChange: (sort) => setFilters({ sort }) }}
        empty={<Text c="dimmed">No transactions yet</Text>}
        paging={data ? { page, limit: PAGE_SIZE, total: data.total, onPage: setPage } : undefined}
      />
      {adding && (
        <TransactionModal
          onClose={() => setAdding(false)}
          onCreated={({ message, awaitingApproval: pending }) => {
            setAdding(false);
            setPage(1);
            setAwaitingApproval(pending ? message : null);
            if (!pending) showSuccess(message);
          }}
        />
      )}
    </Stack>
  );
}
