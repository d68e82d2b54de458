import { useState } from 'react';
import { Alert, Group, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCoinRupee, IconReceiptTax, IconUsers } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { QUARTERS, taxApi, type TdsMemberRow } from '../../../contract/tax';
import { CsvButton } from '../../components/csv-button';
import { DataTable, type Column } from '../../components/data-table';
import { PrintButton } from '../../components/print-button';
import { StatusBadge } from '../../components/status-badge';
import { SummaryCard } from '../../components/summary-card';
import { TruncatedText } from '../../components/truncated-text';
import { useListState } from '../../components/use-url-state';
import { errorMessage } from '../../lib/api-client';
import { formatCount, formatINR, indiaToday } from '../../lib/format';
import { TDS_PAGE_SIZE, tdsReportQuery } from './tax.api';

/** The financial-year quarter of today (India): FY start year and 1..4. */
function currentQuarter(): { year: number; quarter: number } {
  const [y, m] = indiaToday().split('-').map(Number);
  return m >= 4 ? { year: y, quarter: Math.floor((m - 4) / 3) + 1 } : { year: y - 1, quarter: 4 };
}

const NOW = currentQuarter();
const DEFAULTS = { year: String(NOW.year), quarter: String(NOW.quarter) };
const fy = (year: number) => `FY ${year}-${String((year + 1) % 100).padStart(2, '0')}`;
const YEARS = Array.from({ length: 6 }, (_, i) => NOW.year - i).map((y) => ({ value: String(y), label: fy(y) }));

const COLUMNS: Column<TdsMemberRow>[] = [
  { header: 'User ID', cell: (r) => r.userId },
  { header: 'Name', cell: (r) => <TruncatedText maxWidth={220}>{r.name}</TruncatedText> },
  { header: 'PAN', cell: (r) => (r.pan ? <Text ff="monospace" size="sm">{r.pan}</Text> : <StatusBadge tone="warning">No PAN</StatusBadge>) },
  { header: 'Amount Paid', cell: (r) => formatINR(r.gross) },
  { header: 'TDS Deducted', cell: (r) => formatINR(r.tds) },
  { header: 'Days', cell: (r) => formatCount(r.days) },
  { header: 'Dates', cell: (r) => (r.firstDate === r.lastDate ? r.firstDate : `${r.firstDate} – ${r.lastDate}`) },
  {
    header: 'Section',
    cell: (r) => (
      <Group gap={4}>
        {r.sections.map((s) => (
          <StatusBadge key={s} tone={s === '206AA' ? 'warning' : 'info'}>{s}</StatusBadge>
        ))}
      </Group>
    ),
  },
];

/** Reports › TDS: a quarter's deductions per member, and the CSV for the quarterly TDS return (Form 26Q). */
export default function TdsReportPage() {
  const { filters, setFilters, page, setPage } = useListState(DEFAULTS);
  const year = Number(filters.year) || NOW.year;
  const quarter = Math.min(4, Math.max(1, Number(filters.quarter) || NOW.quarter));
  const report = useQuery(tdsReportQuery(year, quarter, page));
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const data = report.data;
  const years = YEARS.some((y) => y.value === String(year)) ? YEARS : [...YEARS, { value: String(year), label: fy(year) }];

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <div>
          <Title order={1} size="h2">
            TDS Report
          </Title>
          <Text c="dimmed">Tax deducted at source from daily payouts, per member, for the quarterly TDS return (Form 26Q)</Text>
        </div>
        <Group gap="sm" className="no-print">
          <CsvButton
            endpoint={taxApi.tdsCsv}
            input={{ query: { year, quarter } }}
            filename={`tds-fy${year}-${String((year + 1) % 100).padStart(2, '0')}-q${quarter}.csv`}
            onError={setDownloadError}
          />
          <PrintButton label="Print report" />
        </Group>
      </Group>
      <Group className="no-print" align="flex-end">
        <Select label="Financial year" data={years} value={String(year)} allowDeselect={false} onChange={(v) => v && setFilters({ year: v })} w={180} />
        <Select
          label="Quarter"
          data={QUARTERS.map((q) => ({ value: String(q.value), label: q.label }))}
          value={String(quarter)}
          allowDeselect={false}
          onChange={(v) => v && setFilters({ quarter: v })}
          w={180}
        />
      </Group>
      {(report.isError || downloadError) && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
          {report.isError ? errorMessage(report.error, 'Failed to load the TDS report. Please try again.') : downloadError}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="lg">
        <SummaryCard label="Amount Paid" value={data ? formatINR(data.summary.gross) : null} icon={IconCoinRupee} color="teal" />
        <SummaryCard label="TDS Deducted" value={data ? formatINR(data.summary.tds) : null} icon={IconReceiptTax} color="grape" />
        <SummaryCard label="Of Which Without PAN (206AA)" value={data ? formatINR(data.summary.tdsWithoutPan) : null} icon={IconAlertTriangle} color="orange" />
        <SummaryCard label="Members" value={data ? formatCount(data.summary.members) : null} icon={IconUsers} color="indigo" />
      </SimpleGrid>
      <DataTable
        caption={data ? `TDS per member, ${data.summary.label} (${data.summary.from} – ${data.summary.to})` : 'TDS per member'}
        columns={COLUMNS}
        rows={data?.data}
        rowKey={(r) => r.userId}
        loading={report.isPending || report.isPlaceholderData}
        empty={<Text c="dimmed">No TDS was deducted in this quarter</Text>}
        paging={data ? { page, limit: TDS_PAGE_SIZE, total: data.total, onPage: setPage } : undefined}
      />
      <Text size="xs" c="dimmed">
        Section 194H with a PAN; 206AA where TDS was deducted at the higher rate for want of a PAN (in Form 26Q the section stays 194H with the
        higher-rate remark). The CSV has one line per member and day, the PAN whole (PANNOTAVBL without one). Confirm with the company&apos;s tax
        adviser before filing.
      </Text>
    </Stack>
  );
}
