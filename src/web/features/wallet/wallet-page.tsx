import { useState } from 'react';
import { Alert, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { walletApi, type WalletTransaction } from '../../../contract/wallet';
import { ApprovalNotice } from '../../components/approval-notice';
import { DataTable, type Column } from '../../components/data-table';
import { SuccessBanner, useSuccessBanner } from '../../components/success-banner';
import { errorMessage } from '../../lib/api-client';
import { formatAmount, formatDateTime } from '../../lib/format';
import { CsvButton } from '../../components/csv-button';
import { TransactionModal } from './transaction-modal';
import { PAGE_SIZE, walletTransactionsQuery } from './wallet.api';

const COLUMNS: Column<WalletTransaction>[] = [
  {
    header: 'User',
    cell: (t) => (
      <div>
        <Text size="sm" fw={500}>
          {t.fullName}
        </Text>
        <Text size="xs" c="dimmed">{`ID: ${t.userId}`}</Text>
      </div>
    ),
  },
  {
    header: 'Amount',
    cell: (t) => {
      const recharge = t.transactionType === 'wallet_recharge';
      return (
        <Text size="sm" fw={600} c={recharge ? 'teal' : 'red'}>
          {`${recharge ? '+' : '-'}${formatAmount(t.amount)}`}
        </Text>
      );
    },
  },
  {
    header: 'Type',
    cell: (t) => (
      <Badge variant="light" color={t.transactionType === 'wallet_recharge' ? 'teal' : 'orange'} tt="none">
        {t.transactionType === 'wallet_recharge' ? 'Recharge' : 'Withdrawal'}
      </Badge>
    ),
  },
  { header: 'Date & Time', cell: (t) => formatDateTime(t.dateTime) },
];

export default function WalletPage() {
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState(false);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const [success, showSuccess] = useSuccessBanner();
  const [awaitingApproval, setAwaitingApproval] = useState<string | null>(null);
  const transactions = useQuery(walletTransactionsQuery(page));
  const data = transactions.data;

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1} size="h2">
          User Wallet
        </Title>
        <Group gap="sm">
          <CsvButton endpoint={walletApi.historyCsv} filename="wallet-transactions.csv" onError={setDownloadError} />
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>
            Add User
          </Button>
        </Group>
      </Group>
      <SuccessBanner message={success} />
      <ApprovalNotice message={awaitingApproval} onClose={() => setAwaitingApproval(null)} />
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
        loading={transactions.isPending || (transactions.isFetching && transactions.isPlaceholderData)}
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
