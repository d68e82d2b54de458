import { useState } from 'react';
import { Text } from '@mantine/core';
import { walletApi, type WalletTransaction } from '../../../contract/wallet';
import { ledgerKindLabel } from '../../../contract/ledger-kinds';
import { ApprovalNotice } from '../../components/approval-notice';
import type { Column } from '../../components/data-table';
import { csvFile, ListPage } from '../../components/list-page';
import { StatusBadge } from '../../components/status-badge';
import { TruncatedText } from '../../components/truncated-text';
import { useResource } from '../../components/use-resource';
import { errorMessage } from '../../lib/api-client';
import { formatAmount, formatDateTime } from '../../lib/format';
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
  const wallet = useResource({ filters: WALLET_FILTERS, query: walletTransactionsQuery, rowsOf: (data) => data.data, onFailure: 'blank' });
  const { filters, setFilters, list: transactions } = wallet;
  const [filterKey, setFilterKey] = useState(0);
  const [awaitingApproval, setAwaitingApproval] = useState<string | null>(null);

  return (
    <ListPage
      title="User Wallet"
      csv={csvFile(walletApi.historyCsv, { query: walletQueryOf(filters) }, 'wallet-transactions.csv')}
      addLabel="Add User"
      resource={wallet}
      notices={<ApprovalNotice message={awaitingApproval} onClose={() => setAwaitingApproval(null)} />}
      filters={
        <WalletFilters
          key={filterKey}
          view={filters}
          onChange={setFilters}
          onClear={() => {
            setFilters({ ...WALLET_FILTERS, sort: filters.sort });
            setFilterKey((k) => k + 1);
          }}
        />
      }
      failure={transactions.isError ? errorMessage(transactions.error, 'Failed to load wallet transactions') : null}
      caption="Wallet transactions"
      columns={COLUMNS}
      rowKey={(t) => t.id}
      empty={<Text c="dimmed">No transactions yet</Text>}
      paging={transactions.data ? { limit: PAGE_SIZE, total: transactions.data.total } : undefined}
      form={() => (
        <TransactionModal
          onClose={wallet.closeForm}
          onCreated={({ message, awaitingApproval: pending }) => {
            wallet.closeForm();
            wallet.setPage(1);
            setAwaitingApproval(pending ? message : null);
            if (!pending) wallet.done(message);
          }}
        />
      )}
    />
  );
}
