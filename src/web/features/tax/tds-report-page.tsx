import { Group, Select, Text } from '@mantine/core';
import { IconAlertTriangle, IconCoinRupee, IconReceiptTax, IconUsers } from '@tabler/icons-react';
import { QUARTERS, taxApi, type TdsMemberRow, type TdsReport } from '../../../contract/tax';
import type { Column } from '../../components/data-table';
import { csvFile, ListPage } from '../../components/list-page';
import { PrintButton } from '../../components/print-button';
import { StatusBadge } from '../../components/status-badge';
import { TotalCards, type Total } from '../../components/summary-card';
import { TruncatedText } from '../../components/truncated-text';
import { useResource } from '../../components/use-resource';
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

/** The address's year and quarter, a hand-edited one read as this quarter. */
const TOTALS: Total<TdsReport>[] = [
  { label: 'Amount Paid', value: (r) => formatINR(r.summary.gross), icon: IconCoinRupee, color: 'teal' },
  { label: 'TDS Deducted', value: (r) => formatINR(r.summary.tds), icon: IconReceiptTax, color: 'grape' },
  { label: 'Of Which Without PAN (206AA)', value: (r) => formatINR(r.summary.tdsWithoutPan), icon: IconAlertTriangle, color: 'orange' },
  { label: 'Members', value: (r) => formatCount(r.summary.members), icon: IconUsers, color: 'indigo' },
];

const read = (f: typeof DEFAULTS): typeof DEFAULTS => ({
  year: String(Number(f.year) || NOW.year),
  quarter: String(Math.min(4, Math.max(1, Number(f.quarter) || NOW.quarter))),
});

/** Reports › TDS: a quarter's deductions per member, and the CSV for the quarterly TDS return (Form 26Q). */
export default function TdsReportPage() {
  const report = useResource({
    filters: DEFAULTS,
    read,
    query: (f, page) => tdsReportQuery(Number(f.year), Number(f.quarter), page),
    rowsOf: (d) => d.data,
    onFailure: 'blank',
  });
  const { setFilters } = report;
  const year = Number(report.filters.year);
  const quarter = Number(report.filters.quarter);
  const data = report.list.data;
  const years = YEARS.some((y) => y.value === String(year)) ? YEARS : [...YEARS, { value: String(year), label: fy(year) }];

  return (
    <ListPage
      title="TDS Report"
      subtitle="Tax deducted at source from daily payouts, per member, for the quarterly TDS return (Form 26Q)"
      csv={csvFile(taxApi.tdsCsv, { query: { year, quarter } }, `tds-fy${year}-${String((year + 1) % 100).padStart(2, '0')}-q${quarter}.csv`)}
      actions={<PrintButton label="Print report" />}
      resource={report}
      filters={
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
      }
      failure={report.list.isError ? errorMessage(report.list.error, 'Failed to load the TDS report. Please try again.') : null}
      summary={<TotalCards data={data} totals={TOTALS} cols={{ base: 1, sm: 2, lg: 4 }} />}
      caption={data ? `TDS per member, ${data.summary.label} (${data.summary.from} – ${data.summary.to})` : 'TDS per member'}
      columns={COLUMNS}
      rowKey={(r) => r.userId}
      empty={<Text c="dimmed">No TDS was deducted in this quarter</Text>}
      paging={data ? { limit: TDS_PAGE_SIZE, total: data.total } : undefined}
      footer={
        <Text size="xs" c="dimmed">
          Section 194H with a PAN; 206AA where TDS was deducted at the higher rate for want of a PAN (in Form 26Q the section stays 194H with the
          higher-rate remark). The CSV has one line per member and day, the PAN whole (PANNOTAVBL without one). Confirm with the company&apos;s tax
          adviser before filing.
        </Text>
      }
    />
  );
}
