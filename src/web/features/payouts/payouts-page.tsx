import { useState } from 'react';
import { Button, Paper, Stack, Text } from '@mantine/core';
import { BarChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { IconCircleCheck, IconCircleX, IconCurrencyRupee, IconListNumbers } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { payoutsApi, PAYOUT_SORTS } from '../../../contract/payouts';
import { ApprovalNotice } from '../../components/approval-notice';
import type { Column } from '../../components/data-table';
import { csvFile, ListPage } from '../../components/list-page';
import { StatusBadge } from '../../components/status-badge';
import { TruncatedText } from '../../components/truncated-text';
import { useResource } from '../../components/use-resource';
import { currentMonthRange, formatAmount, formatCount, formatDate, formatDateTime, localDay } from '../../lib/format';
import { TotalCards, type Total } from '../../components/summary-card';
import { PayPayoutModal } from './pay-payout-modal';
import { PayoutFilters } from './payout-filters';
import {
  failedPayoutIds, PAGE_SIZE, payBulkChunk, payoutsCsvInput, payoutsQuery, selectionOf, type PayoutFilters as Filters, type PayoutRow, type PayoutsView,
} from './payouts.api';
import { BulkBar, BulkRunModal, useBulkRun } from '../../components/bulk';
import { useSelection } from '../../components/use-selection';

/** A reversed payout: who reversed it, when, why, and what it was before. */
function reversedText(p: PayoutRow): string {
  const before = p.reversedStatus === 'Failure' ? 'unpaid failure' : p.reversedStatus === 'Success' ? 'paid' : null;
  const parts = [
    p.reversedByName ? `Reversed by ${p.reversedByName}` : 'Reversed',
    p.reversedAt ? `on ${formatDateTime(p.reversedAt)}` : null,
  ].filter(Boolean).join(' ');
  return `${parts}${p.reversalReason ? `: ${p.reversalReason}` : ''}${before ? ` (was ${before})` : ''}`;
}

/**
 * Spec §9: the date range defaults to the current month; 'Clear Filters & Reload' returns to it.
 * Filters, order and page are kept in the address, so a reload or a shared link shows the same view.
 */
const URL_FILTERS: Filters = { ...currentMonthRange(), userName: '', status: '', sort: '-date' };
const SORTS = new Set<string>(PAYOUT_SORTS.flatMap((k) => [k, `-${k}`]));

/** The address's filters, with an unknown status or order read as the default. */
const TOTALS: Total<PayoutsView>[] = [
  { label: 'Total Payouts', value: (p) => formatCount(p.totals.count), icon: IconListNumbers, color: 'indigo' },
  { label: 'Total Amount', value: (p) => formatAmount(p.totals.amount), icon: IconCurrencyRupee, color: 'grape' },
  { label: 'Successful', value: (p) => formatCount(p.totals.successful), icon: IconCircleCheck, color: 'teal' },
  { label: 'Failed', value: (p) => formatCount(p.totals.failed), icon: IconCircleX, color: 'red' },
];

const known = (f: Filters): Filters => ({
  ...f,
  status: f.status === 'Success' || f.status === 'Failure' || f.status === 'Reversed' ? f.status : '',
  sort: SORTS.has(f.sort) ? f.sort : URL_FILTERS.sort,
});

export default function PayoutsPage() {
  const list = useResource({ filters: URL_FILTERS, read: known, query: payoutsQuery, rowsOf: (d) => d.data, onFailure: 'blank' });
  const { filters, list: payouts } = list;
  const [searched, setSearched] = useState(false);
  const [paying, setPaying] = useState<(PayoutRow & { userId: number }) | null>(null);
  const [filterKey, setFilterKey] = useState(0);
  const [awaitingApproval, setAwaitingApproval] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const data = payouts.data;
  // While other filters load, the cards and chart wait too (they never describe the previous
  // selection); another page or order of the same rows keeps them.
  const shown = data?.selection === selectionOf(filters) ? data : undefined;

  // Bulk Pay Now (issue 24): the Failure rows of a page, or every Failure row the filters match.
  const pageIds = (data?.data ?? []).filter((p) => p.status === 'Failure' && p.userId !== undefined).map((p) => p.id);
  const selection = useSelection<number>({ pageIds, total: data?.total ?? 0, resetKey: selectionOf(filters) });
  const bulk = useBulkRun<number>();
  const names = new Map((data?.data ?? []).map((p) => [p.id, `${p.userName} (${formatDate(localDay(p.date))})`]));
  const startBulk = () => {
    const bulkId = crypto.randomUUID();
    const picked = [...selection.ids];
    const everything = selection.mode === 'all';
    void bulk.start({
      title: everything ? 'Pay Now for every failed payout matching the filters' : `Pay Now for ${formatCount(picked.length)} payouts`,
      items: async () => (everything ? failedPayoutIds(filters) : picked),
      chunkSize: 100,
      runChunk: (ids, key) => payBulkChunk(ids, key, bulkId),
      describe: (id) => names.get(id) ?? `Payout ${id}`,
      onFinished: () => {
        selection.clear();
        void queryClient.invalidateQueries({ queryKey: [payoutsApi.list.group] });
      },
    });
  };

  const columns: Column<PayoutRow>[] = [
    { header: 'User Name', cell: (p) => <TruncatedText maxWidth={220}>{p.userName}</TruncatedText>, sort: 'name' },
    // Issue 24: gross, the deductions and the net, named as such; Amount is what the member receives.
    { header: 'Gross', cell: (p) => (p.gross === null || p.gross === undefined ? '—' : formatAmount(p.gross)) },
    { header: 'TDS', cell: (p) => (p.tds === undefined ? '—' : formatAmount(p.tds)) },
    { header: 'Admin Charge', cell: (p) => (p.adminCharge === undefined ? '—' : formatAmount(p.adminCharge)) },
    // Spec §2's header; the note above the table says it is the net.
    { header: 'Amount', cell: (p) => formatAmount(p.amount), sort: 'amount' },
    { header: 'Date', cell: (p) => formatDate(localDay(p.date)), sort: 'date' },
    {
      header: 'Status',
      cell: (p) => (
        <Stack gap={2} align="flex-start">
          <StatusBadge tone={p.status === 'Success' ? 'positive' : p.status === 'Reversed' ? 'neutral' : 'negative'}>{p.status}</StatusBadge>
          {p.status === 'Failure' && p.reason && (
            <Text size="xs" c="dimmed">
              {p.reason}
            </Text>
          )}
          {p.status === 'Reversed' && (
            <Text size="xs" c="dimmed">
              {reversedText(p)}
            </Text>
          )}
        </Stack>
      ),
      sort: 'status',
    },
    {
      header: 'Action',
      cell: (p) => {
        const { userId } = p;
        return p.status === 'Failure' && userId !== undefined ? (
          <Button size="xs" color="teal" onClick={() => setPaying({ ...p, userId })} aria-label={`Pay Now: ${p.userName}, ${p.date}`}>
            Pay Now
          </Button>
        ) : null;
      },
    },
  ];

  return (
    <ListPage
      title="Daily Payout"
      csv={csvFile(payoutsApi.csv, payoutsCsvInput(filters), 'daily-payouts.csv')}
      resource={list}
      notices={<ApprovalNotice message={awaitingApproval} onClose={() => setAwaitingApproval(null)} />}
      filters={
        <PayoutFilters
          key={filterKey}
          initial={filters}
          status={filters.status}
          onStatus={(status) => list.setFilters({ status })}
          onSearch={(next) => {
            list.setFilters(next);
            setSearched(true);
          }}
          onClear={() => {
            const { sort: _sort, ...defaults } = URL_FILTERS;
            list.setFilters(defaults);
            setSearched(false);
            setFilterKey((k) => k + 1);
            void queryClient.invalidateQueries({ queryKey: [payoutsApi.list.group] });
          }}
        />
      }
      failure={payouts.isError ? `${searched ? 'Failed to search payouts' : 'Failed to load payouts'}: ${payouts.error.message}` : null}
      summary={
        <>
          <TotalCards data={shown} totals={TOTALS} cols={{ base: 1, xs: 2, lg: 4 }} />
          {shown && shown.daily.length > 0 && (
            <Paper withBorder radius="md" p="md">
              <Text fw={600} mb="sm">
                Success and failure per day
              </Text>
              <BarChart
                h={220}
                data={shown.daily.map((d) => ({ date: formatDate(localDay(d.date)), Successful: d.successful, Failed: d.failed }))}
                dataKey="date"
                type="stacked"
                series={[
                  { name: 'Successful', color: 'teal.6' },
                  { name: 'Failed', color: 'red.6' },
                ]}
                withLegend
              />
            </Paper>
          )}
        </>
      }
      toolbar={
        <>
          <BulkBar
            selection={selection}
            total={filters.status === 'Failure' ? (data?.total ?? 0) : (shown?.totals.failed ?? data?.total ?? 0)}
            noun="failed payouts"
            actions={[{ label: 'Pay Now', color: 'teal', onClick: startBulk }]}
          />
          <Text size="sm" c="dimmed">
            Amount is the net paid to the member: gross minus TDS and admin charge.
            {shown?.totals.reversed ? ` ${formatCount(shown.totals.reversed)} reversed payout(s) are listed but not in the Total Amount.` : ''}
          </Text>
        </>
      }
      caption="Daily payouts"
      columns={columns}
      rowKey={(p) => p.id}
      select={{
        selection,
        rowId: (p) => p.id,
        rowLabel: (p) => `Select payout of ${p.userName}, ${formatDate(localDay(p.date))}`,
        selectable: (p) => p.status === 'Failure' && p.userId !== undefined,
      }}
      empty={<Text c="dimmed">No payouts found</Text>}
      paging={data ? { limit: PAGE_SIZE, total: data.total } : undefined}
    >
      <BulkRunModal run={bulk} />
      {paying && (
        <PayPayoutModal
          payout={paying}
          onClose={() => setPaying(null)}
          onPaid={({ message, awaitingApproval: pending }) => {
            setPaying(null);
            setAwaitingApproval(pending ? message : null);
            if (!pending) list.done(message);
          }}
        />
      )}
    </ListPage>
  );
}
