import { useMemo, useState, type ReactNode } from 'react';
import type { Endpoint } from '../../../contract/endpoint';
import { Alert, Badge, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCalendar, IconCoinRupee, IconUsers } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { IncomeResponse, IncomeReversal, IncomeUser } from '../../../contract/reports';
import { DataTable, type Column } from '../../components/data-table';
import { TruncatedText } from '../../components/truncated-text';
import { useListState, type UrlState } from '../../components/use-url-state';
import { currentMonthRange, formatCount, formatINR } from '../../lib/format';
import { CsvButton } from '../../components/csv-button';
import { PrintButton } from '../../components/print-button';
import { ReportFilters } from './report-filters';
import { dateRangeText, PAGE_SIZE, reportErrorMessage, type ReportKind, type ReportSearch } from './reports.api';
import { SummaryCard } from '../../components/summary-card';

/** A user's row, or a reversal's row under it (negative, labelled). */
type IncomeRow = IncomeUser & { key: string; index: number; reversal: string | null };

export function withReversals(users: IncomeUser[], reversals: IncomeReversal[]): IncomeRow[] {
  return users.flatMap((u, index) => [
    { ...u, key: `u${u.userId}-${u.userName}`, index, reversal: null },
    ...reversals
      .filter((r) => r.userId === u.userId)
      .map((r, k) => ({ ...u, amount: r.amount, transactions: 0, key: `r${u.userId}-${k}`, index, reversal: r.label })),
  ]);
}

/** A report's search, order (and reward type) as the address keeps them. */
export type ReportUrlState = ReportSearch & { sort: string } & UrlState;

/** The defaults of a report's address: the current month, no name, and the report's own order. */
export const reportDefaults = <F extends { sort: string } & UrlState>(extra: F): ReportSearch & F =>
  ({ ...currentMonthRange(), userName: '', ...extra });

/**
 * A report's applied search (the current month at first), order and page, kept in the address so
 * that a reload or a shared link shows the same view; a new search or order starts at page 1.
 * `defaults` is a module-level constant.
 */
export function useReportSearch<F extends ReportUrlState>(defaults: F) {
  const { filters, setFilters, page, setPage } = useListState(defaults);
  const { from, to, userName } = filters;
  const search = useMemo<ReportSearch>(() => ({ from, to, userName }), [from, to, userName]);
  const onSearch = (next: ReportSearch) => setFilters(next as Partial<F>);
  return { search, filters, setFilters, page, setPage, onSearch };
}
export type ReportSearchState = Pick<ReturnType<typeof useReportSearch>, 'search' | 'page' | 'setPage' | 'onSearch'> & {
  /** The users' order (`-amount` largest income first) and how to change it. */
  sort: { value: string; onChange: (value: string) => void };
};

interface IncomePageProps {
  title: string;
  kind: Exclude<ReportKind, 'revenue'>;
  totalLabel: string;
  amountHeader: string;
  state: ReportSearchState;
  result: UseQueryResult<IncomeResponse>;
  csv: { endpoint: Endpoint; input: unknown; filename: string };
  /** Extra filter controls (the Reward Type select). */
  filters?: ReactNode;
}

/** Royalty and reward income: the same filters, three cards and a table grouped per user. */
export function IncomePage({ title, kind, totalLabel, amountHeader, state, result, csv, filters }: IncomePageProps) {
  const { search, onSearch, page, setPage: onPage, sort } = state;
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const data = result.data;
  // Issue 24: each user's row is what they received (net); a reversal is a row of its own under it.
  const rows = data ? withReversals(data.users, data.reversals) : undefined;
  const columns: Column<IncomeRow>[] = [
    { header: '#', cell: (r) => (r.reversal ? '' : (page - 1) * PAGE_SIZE + r.index + 1), width: 60 },
    {
      header: 'User Name',
      sort: 'userName',
      cell: (r) =>
        r.reversal ? (
          <Stack gap={0}>
            <TruncatedText maxWidth={260}>{r.userName}</TruncatedText>
            <Text size="xs" c="red">{r.reversal}</Text>
          </Stack>
        ) : (
          <TruncatedText maxWidth={260}>{r.userName}</TruncatedText>
        ),
    },
    {
      header: 'Rank',
      cell: (r) =>
        r.reversal ? null : (
          <Group gap={6} wrap="nowrap">
            <Text size="sm">{r.rankName ?? 'No Rank'}</Text>
            <Badge variant="light" color="indigo" size="sm" tt="none">{`Level ${r.level}`}</Badge>
          </Group>
        ),
    },
    {
      header: amountHeader,
      cell: (r) => (r.reversal ? <Text size="sm" c="red">{formatINR(r.amount)}</Text> : formatINR(r.amount)),
      sort: 'amount',
    },
    { header: 'Transactions', cell: (r) => (r.reversal ? '' : formatCount(r.transactions)) },
  ];

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1} size="h2">
          {title}
        </Title>
        <Group gap="sm" className="no-print">
          <CsvButton endpoint={csv.endpoint} input={csv.input} filename={csv.filename} onError={setDownloadError} />
          <PrintButton label="Print report" />
        </Group>
      </Group>
      <div className="no-print">
        <ReportFilters initial={search} onSearch={onSearch}>
          {filters}
        </ReportFilters>
      </div>
      {(result.isError || downloadError) && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
          {result.isError ? reportErrorMessage(result.error, kind) : downloadError}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
        <SummaryCard label={totalLabel} value={data ? formatINR(data.totalAmount) : null} icon={IconCoinRupee} color="teal" />
        <SummaryCard label="Total Users" value={data ? formatCount(data.totalUsers) : null} icon={IconUsers} color="grape" />
        <SummaryCard label="Date Range" value={dateRangeText(search)} icon={IconCalendar} color="indigo" />
      </SimpleGrid>
      <Text size="sm" c="dimmed">
        Amounts are what members received, net of TDS and admin charge; a reversal is shown as its own row.
      </Text>
      <DataTable
        caption={`${title} per user`}
        columns={columns}
        rows={rows}
        rowKey={(r) => r.key}
        loading={result.isPending || result.isPlaceholderData}
        sort={sort}
        empty={<Text c="dimmed">{`No ${kind} income found for this date range`}</Text>}
        paging={data ? { page, limit: PAGE_SIZE, total: data.totalUsers, onPage } : undefined}
      />
    </Stack>
  );
}
