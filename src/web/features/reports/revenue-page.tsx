import { useState } from 'react';
import { Alert, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { AreaChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { IconAlertTriangle, IconCalendar, IconCoinRupee, IconReceipt } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { REVENUE_SORTS, reportsApi, type RevenueEntry } from '../../../contract/reports';
import { DataTable, type Column } from '../../components/data-table';
import { TruncatedText } from '../../components/truncated-text';
import { formatCount, formatDate, formatDateTime, formatINR, localDay } from '../../lib/format';
import { CsvButton } from '../../components/csv-button';
import { PrintButton } from '../../components/print-button';
import { ReportFilters } from './report-filters';
import { reportDefaults, useReportSearch } from './income-page';
import {
  dateRangeText, knownSort, PAGE_SIZE, reportCsvInput, reportErrorMessage, revenueChartDays, revenueQuery, type RevenueSort,
} from './reports.api';
import { SummaryCard } from '../../components/summary-card';

const COLUMNS: Column<RevenueEntry>[] = [
  { header: 'Date & Time', cell: (r) => formatDateTime(r.dateTime), sort: 'dateTime' },
  { header: 'Amount', cell: (r) => formatINR(r.amount), sort: 'amount' },
  { header: 'User Name', cell: (r) => <TruncatedText maxWidth={260}>{r.userName}</TruncatedText>, sort: 'userName' },
];

const URL_FILTERS = reportDefaults({ sort: '-dateTime' });

export default function RevenuePage() {
  const { search, filters, setFilters, page, setPage, onSearch } = useReportSearch(URL_FILTERS);
  const sort = knownSort<RevenueSort>(filters.sort, REVENUE_SORTS, '-dateTime');
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const revenue = useQuery(revenueQuery(search, page, sort));
  const data = revenue.data;

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1} size="h2">
          Total Revenue
        </Title>
        <Group gap="sm" className="no-print">
          <CsvButton endpoint={reportsApi.revenueCsv} input={reportCsvInput(search)} filename="revenue.csv" onError={setDownloadError} />
          <PrintButton label="Print report" />
        </Group>
      </Group>
      <div className="no-print">
        <ReportFilters initial={search} onSearch={onSearch} />
      </div>
      {(revenue.isError || downloadError) && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
          {revenue.isError ? reportErrorMessage(revenue.error, 'revenue') : downloadError}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
        <SummaryCard label="Total Amount" value={data ? formatINR(data.totalAmount) : null} icon={IconCoinRupee} color="teal" />
        <SummaryCard label="Date Range" value={dateRangeText(search)} icon={IconCalendar} color="indigo" />
        <SummaryCard label="Transactions" value={data ? formatCount(data.count) : null} icon={IconReceipt} color="grape" />
      </SimpleGrid>
      {data && data.daily.length > 0 && (
        <Paper withBorder radius="md" p="md">
          <Text fw={600} mb="sm">
            Revenue per day
          </Text>
          {/* Straight lines through every day of the range (₹0 on a quiet day): never below the data. */}
          <AreaChart
            h={220}
            data={revenueChartDays(search, data.daily).map((d) => ({ date: formatDate(localDay(d.date)), Revenue: d.amount }))}
            dataKey="date"
            series={[{ name: 'Revenue', color: 'teal.6' }]}
            valueFormatter={formatINR}
            curveType="linear"
            withDots={false}
          />
        </Paper>
      )}
      <DataTable
        caption="Revenue transactions"
        columns={COLUMNS}
        rows={data?.data}
        rowKey={(r) => r.id}
        loading={revenue.isPending || revenue.isPlaceholderData}
        sort={{ value: sort, onChange: (value) => setFilters({ sort: value }) }}
        empty={<Text c="dimmed">No revenue found for this date range</Text>}
        paging={data ? { page, limit: PAGE_SIZE, total: data.count, onPage: setPage } : undefined}
      />
    </Stack>
  );
}
