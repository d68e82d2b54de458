import { useState } from 'react';
import { Alert, Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { BarChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { IconAlertTriangle, IconCircleCheck, IconCircleX, IconCoin, IconListNumbers } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { payoutsApi, type Payout } from '../../../contract/payouts';
import { ApprovalNotice } from '../../components/approval-notice';
import { DataTable, type Column } from '../../components/data-table';
import { SuccessBanner, useSuccessBanner } from '../../components/success-banner';
import { currentMonthRange, formatAmount, formatCount, formatDate, localDay } from '../../lib/format';
import { CsvButton } from '../../components/csv-button';
import { SummaryCard } from '../../components/summary-card';
import { PayPayoutModal } from './pay-payout-modal';
import { PayoutFilters } from './payout-filters';
import { PAGE_SIZE, payoutsCsvInput, payoutsQuery, type PayoutFilters as Filters } from './payouts.api';

/** Spec §9: the date range defaults to the current month; 'Clear Filters & Reload' returns to it. */
const defaultFilters = (): Filters => ({ ...currentMonthRange(), userName: '', status: '' });

export default function PayoutsPage() {
  const [filters, setFilters] = useState<Filters>(defaultFilters);
  const [searched, setSearched] = useState(false);
  const [page, setPage] = useState(1);
  const [paying, setPaying] = useState<Payout | null>(null);
  const [filterKey, setFilterKey] = useState(0);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const [success, showSuccess] = useSuccessBanner();
  const [awaitingApproval, setAwaitingApproval] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const payouts = useQuery(payoutsQuery(filters, page));
  const data = payouts.data;

  const columns: Column<Payout>[] = [
    { header: 'User Name', cell: (p) => p.userName },
    { header: 'Amount', cell: (p) => formatAmount(p.amount) },
    { header: 'Date', cell: (p) => formatDate(localDay(p.date)) },
    {
      header: 'Status',
      cell: (p) => (
        <Badge color={p.status === 'Success' ? 'teal' : 'red'} variant="light" tt="none">
          {p.status}
        </Badge>
      ),
    },
    {
      header: 'Action',
      cell: (p) =>
        p.status === 'Failure' ? (
          <Button size="xs" color="teal" onClick={() => setPaying(p)} aria-label={`Pay Now: ${p.userName}, ${p.date}`}>
            Pay Now
          </Button>
        ) : null,
    },
  ];

  const failure = payouts.isError
    ? `${searched ? 'Failed to search payouts' : 'Failed to load payouts'}: ${payouts.error.message}`
    : downloadError;

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1} size="h2">
          Daily Payout
        </Title>
        <CsvButton endpoint={payoutsApi.csv} input={payoutsCsvInput(filters)} filename="daily-payouts.csv" onError={setDownloadError} />
      </Group>
      <SuccessBanner message={success} />
      <ApprovalNotice message={awaitingApproval} onClose={() => setAwaitingApproval(null)} />
      <PayoutFilters
        key={filterKey}
        initial={filters}
        onSearch={(next) => {
          setFilters(next);
          setSearched(true);
          setPage(1);
        }}
        onClear={() => {
          setFilters(defaultFilters());
          setSearched(false);
          setPage(1);
          setFilterKey((k) => k + 1);
          void queryClient.invalidateQueries({ queryKey: [payoutsApi.list.group] });
        }}
      />
      {failure && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
          {failure}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }} spacing="lg">
        <SummaryCard label="Total Payouts" value={data ? formatCount(data.totals.count) : null} icon={IconListNumbers} color="indigo" />
        <SummaryCard label="Total Amount" value={data ? formatAmount(data.totals.amount) : null} icon={IconCoin} color="grape" />
        <SummaryCard label="Successful" value={data ? formatCount(data.totals.successful) : null} icon={IconCircleCheck} color="teal" />
        <SummaryCard label="Failed" value={data ? formatCount(data.totals.failed) : null} icon={IconCircleX} color="red" />
      </SimpleGrid>
      {data && data.daily.length > 0 && (
        <Paper withBorder radius="md" p="md">
          <Text fw={600} mb="sm">
            Success and failure per day
          </Text>
          <BarChart
            h={220}
            data={data.daily.map((d) => ({ date: formatDate(localDay(d.date)), Successful: d.successful, Failed: d.failed }))}
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
      <DataTable
        caption="Daily payouts"
        columns={columns}
        rows={data?.data}
        rowKey={(p) => p.id}
        loading={payouts.isPending || (payouts.isFetching && payouts.isPlaceholderData)}
        empty={<Text c="dimmed">No payouts found</Text>}
        paging={data ? { page, limit: PAGE_SIZE, total: data.total, onPage: setPage } : undefined}
      />
      {paying && (
        <PayPayoutModal
          payout={paying}
          onClose={() => setPaying(null)}
          onPaid={({ message, awaitingApproval: pending }) => {
            setPaying(null);
            setAwaitingApproval(pending ? message : null);
            if (!pending) showSuccess(message);
          }}
        />
      )}
    </Stack>
  );
}
