import type { ReactNode } from 'react';
import { Badge, Group, Stack, Text } from '@mantine/core';
import { IconCalendar, IconCoinRupee, IconUsers } from '@tabler/icons-react';
import type { QueryKey, UseQueryOptions } from '@tanstack/react-query';
import type { IncomeResponse, IncomeReversal, IncomeUser } from '../../../contract/reports';
import type { Column } from '../../components/data-table';
import { ListPage, type CsvFile } from '../../components/list-page';
import { SummaryCard, SummaryCards } from '../../components/summary-card';
import { TruncatedText } from '../../components/truncated-text';
import { useResource } from '../../components/use-resource';
import type { UrlState } from '../../components/use-url-state';
import { currentMonthRange, formatCount, formatINR } from '../../lib/format';
import { PrintButton } from '../../components/print-button';
import { ReportFilters } from './report-filters';
import { dateRangeText, PAGE_SIZE, reportErrorMessage, type ReportKind, type ReportSearch } from './reports.api';

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

/** The applied search of a report's address. */
export const searchOf = ({ from, to, userName }: ReportSearch): ReportSearch => ({ from, to, userName });

/** A report's search bar: the dates and the user name (and a report's own controls); a new search starts at page 1. */
export function ReportSearchBar({ search, onSearch, children }: { search: ReportSearch; onSearch: (next: ReportSearch) => void; children?: ReactNode }) {
  return (
    <div className="no-print">
      <ReportFilters initial={search} onSearch={onSearch}>
        {children}
      </ReportFilters>
    </div>
  );
}

interface IncomePageProps<F extends ReportUrlState, Key extends QueryKey> {
  title: string;
  kind: Exclude<ReportKind, 'revenue'>;
  totalLabel: string;
  amountHeader: string;
  /** The report's address: its defaults (a module-level constant) and how a hand-edited one is read (module level). */
  urlFilters: F;
  read: (filters: F) => F;
  query: (filters: F, page: number) => UseQueryOptions<IncomeResponse, Error, IncomeResponse, Key>;
  csv: (filters: F) => CsvFile;
  /** Extra filter controls (the Reward Type select). */
  filters?: (filters: F, setFilters: (patch: Partial<F>) => void) => ReactNode;
}

/**
 * Royalty and reward income: the same filters, three cards and a table grouped per user. The
 * search, order (and reward type) and page are kept in the address, so that a reload or a shared
 * link shows the same view; a new search or order starts at page 1.
 */
export function IncomePage<F extends ReportUrlState, Key extends QueryKey>(props: IncomePageProps<F, Key>) {
  const { title, kind, totalLabel, amountHeader, urlFilters, read, query, csv, filters } = props;
  // Issue 24: each user's row is what they received (net); a reversal is a row of its own under it.
  const report = useResource({ filters: urlFilters, read, query, rowsOf: (data) => withReversals(data.users, data.reversals), onFailure: 'blank' });
  const { list: result, page, setFilters } = report;
  const search = searchOf(report.filters);
  const data = result.data;
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
    <ListPage
      title={title}
      csv={csv(report.filters)}
      actions={<PrintButton label="Print report" />}
      resource={report}
      filters={
        <ReportSearchBar search={search} onSearch={(next) => setFilters(next as Partial<F>)}>
          {filters?.(report.filters, setFilters)}
        </ReportSearchBar>
      }
      failure={result.isError ? reportErrorMessage(result.error, kind) : null}
      summary={
        <SummaryCards>
          <SummaryCard label={totalLabel} value={data ? formatINR(data.totalAmount) : null} icon={IconCoinRupee} color="teal" />
          <SummaryCard label="Total Users" value={data ? formatCount(data.totalUsers) : null} icon={IconUsers} color="grape" />
          <SummaryCard label="Date Range" value={dateRangeText(search)} icon={IconCalendar} color="indigo" />
        </SummaryCards>
      }
      toolbar={
        <Text size="sm" c="dimmed">
          Amounts are what members received, net of TDS and admin charge; a reversal is shown as its own row.
        </Text>
      }
      caption={`${title} per user`}
      columns={columns}
      rowKey={(r) => r.key}
      empty={<Text c="dimmed">{`No ${kind} income found for this date range`}</Text>}
      paging={data ? { limit: PAGE_SIZE, total: data.totalUsers } : undefined}
    />
  );
}
