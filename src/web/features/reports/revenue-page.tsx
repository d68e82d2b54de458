import { Paper, Text } from '@mantine/core';
import { AreaChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { IconCalendar, IconCoinRupee, IconReceipt } from '@tabler/icons-react';
import { REVENUE_SORTS, reportsApi, type RevenueEntry } from '../../../contract/reports';
import type { Column } from '../../components/data-table';
import { csvFile, ListPage } from '../../components/list-page';
import { TruncatedText } from '../../components/truncated-text';
import { formatCount, formatDate, formatDateTime, formatINR, localDay } from '../../lib/format';
import { PrintButton } from '../../components/print-button';
import { reportDefaults, ReportSearchBar, searchOf } from './income-page';
import {
  dateRangeText, knownSort, PAGE_SIZE, reportCsvInput, reportErrorMessage, revenueChartDays, revenueQuery, type RevenueSort,
} from './reports.api';
import { SummaryCard, SummaryCards } from '../../components/summary-card';
import { useResource } from '../../components/use-resource';

const COLUMNS: Column<RevenueEntry>[] = [
  { header: 'Date & Time', cell: (r) => formatDateTime(r.dateTime), sort: 'dateTime' },
  { header: 'Amount', cell: (r) => formatINR(r.amount), sort: 'amount' },
  { header: 'User Name', cell: (r) => <TruncatedText maxWidth={260}>{r.userName}</TruncatedText>, sort: 'userName' },
];

const URL_FILTERS = reportDefaults({ sort: '-dateTime' });
type Filters = typeof URL_FILTERS;
const read = (f: Filters): Filters => ({ ...f, sort: knownSort<RevenueSort>(f.sort, REVENUE_SORTS, '-dateTime') });

export default function RevenuePage() {
  const revenue = useResource({
    filters: URL_FILTERS,
    read,
    query: (f, page) => revenueQuery(searchOf(f), page, f.sort as RevenueSort),
    rowsOf: (data) => data.data,
    onFailure: 'blank',
  });
  const search = searchOf(revenue.filters);
  const data = revenue.list.data;

  return (
    <ListPage
      title="Total Revenue"
      csv={csvFile(reportsApi.revenueCsv, reportCsvInput(search), 'revenue.csv')}
      actions={<PrintButton label="Print report" />}
      resource={revenue}
      filters={<ReportSearchBar search={search} onSearch={revenue.setFilters} />}
      failure={revenue.list.isError ? reportErrorMessage(revenue.list.error, 'revenue') : null}
      summary={
        <>
          <SummaryCards>
            <SummaryCard label="Total Amount" value={data ? formatINR(data.totalAmount) : null} icon={IconCoinRupee} color="teal" />
            <SummaryCard label="Date Range" value={dateRangeText(search)} icon={IconCalendar} color="indigo" />
            <SummaryCard label="Transactions" value={data ? formatCount(data.count) : null} icon={IconReceipt} color="grape" />
          </SummaryCards>
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
        </>
      }
      caption="Revenue transactions"
      columns={COLUMNS}
      rowKey={(r) => r.id}
      empty={<Text c="dimmed">No revenue found for this date range</Text>}
      paging={data ? { limit: PAGE_SIZE, total: data.count } : undefined}
    />
  );
}
