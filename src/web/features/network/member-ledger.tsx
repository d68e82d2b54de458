import { useState } from 'react';
import { Button, Paper, Select, Stack, Text } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { MemberLedgerLine } from '../../../contract/member-money';
import { csvFile } from '../../components/list-page';
import { PaperHeading, SectionBar, SectionProblems, usePrintout } from './member-sections';
import { DataTable, type Column } from '../../components/data-table';
import { DateRangeFilter } from '../../components/date-range-filter';
import { KindCell } from '../../components/kind-cell';
import { TruncatedText } from '../../components/truncated-text';
import { useListState } from '../../components/use-url-state';
import { formatDate, formatDateTime, formatINR, localDay } from '../../lib/format';
import { MemberStatementSection } from './member-statement';
import {
  LEDGER_FILTERS, LEDGER_KIND_OPTIONS, LEDGER_PAGE_SIZE, ledgerCsvEndpoint, ledgerCsvInput, memberLedgerQuery, type LedgerView,
} from './member-money.api';

/** The most lines a printed ledger carries (the server's largest page); more: narrow the period or export. */
export const STATEMENT_LIMIT = 500;

const COLUMNS: Column<MemberLedgerLine>[] = [
  { header: 'Date & Time', cell: (l) => formatDateTime(l.dateTime), width: 170 },
  {
    header: 'Kind',
    cell: (l) => <KindCell label={l.kindLabel} description={l.description} />,
  },
  { header: 'Counter-party', cell: (l) => <TruncatedText size="sm" maxWidth={320}>{l.counterparty}</TruncatedText> },
  {
    header: 'Credit',
    cell: (l) => (l.type === 'credit' ? <Text size="sm" c="teal" fw={600}>{`+${formatINR(l.amount)}`}</Text> : null),
  },
  {
    header: 'Debit',
    cell: (l) => (l.type === 'debit' ? <Text size="sm" c="red" fw={600}>{`-${formatINR(l.amount)}`}</Text> : null),
  },
  { header: 'Balance After', cell: (l) => formatINR(l.balanceAfter) },
];

const kindText = (kind: string) => LEDGER_KIND_OPTIONS.find((o) => o.value === kind)?.label ?? 'All kinds';

function periodText(view: LedgerView) {
  if (view.from && view.to) return `${formatDate(localDay(view.from))} to ${formatDate(localDay(view.to))}`;
  if (view.from) return `From ${formatDate(localDay(view.from))}`;
  if (view.to) return `Up to ${formatDate(localDay(view.to))}`;
  return 'All dates';
}

/**
 * The member's ledger (issue 24): every line newest first, a page at a time, with its kind in
 * words, its counter-party and the balance after it; filtered by kind (applies at once) and by
 * India days (on Search), kept in the address; exported whole as CSV; printed as a statement
 * (the period's lines under a heading that names the member, the period and when it was printed).
 */
function LedgerSection({ userId, fullName, offPaper, onPrint }: { userId: number; fullName: string; offPaper: boolean; onPrint: () => void }) {
  const { filters, setFilters, page, setPage } = useListState(LEDGER_FILTERS);
  const [filterKey, setFilterKey] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const ledger = useQuery(memberLedgerQuery(userId, filters, page));
  // The statement's lines: the whole period (up to STATEMENT_LIMIT), not just the page on screen.
  const { printed, ...printout } = usePrintout(
    () => queryClient.fetchQuery(memberLedgerQuery(userId, filters, 1, STATEMENT_LIMIT)),
    'Failed to prepare the ledger for printing',
    setProblem,
    onPrint,
  );

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="ledger-title" className={offPaper ? 'no-print' : undefined}>
      <Stack gap="md">
        {printed && (
          <PaperHeading
            title="Ledger of account"
            fullName={fullName}
            userId={userId}
            lines={[`Period: ${periodText(filters)} · Kind: ${kindText(filters.kind)}`]}
            printedAt={printed.at}
            shown={printed.paper.data.length}
            total={printed.paper.total}
            which="newest"
          />
        )}
        <SectionBar
          id="ledger-title"
          title="Ledger"
          csv={csvFile(ledgerCsvEndpoint, ledgerCsvInput(userId, filters), `member-${userId}-ledger.csv`)}
          onError={setProblem}
          printLabel="Print ledger"
          printout={printout}
        />
        <div className="no-print">
          <DateRangeFilter
            key={filterKey}
            label="Filter the ledger"
            require="none"
            initial={{ from: filters.from, to: filters.to }}
            onSearch={(range) => setFilters({ from: range.from, to: range.to })}
            actions={
              <Button
                variant="default"
                leftSection={<IconX size={16} aria-hidden />}
                onClick={() => {
                  setFilters(LEDGER_FILTERS);
                  setFilterKey((k) => k + 1);
                }}
              >
                Clear Filters
              </Button>
            }
          >
            <Select
              label="Kind"
              data={LEDGER_KIND_OPTIONS}
              value={filters.kind}
              onChange={(kind) => setFilters({ kind: kind ?? '' })}
              allowDeselect={false}
              w={220}
            />
          </DateRangeFilter>
        </div>
        <SectionProblems problem={problem} onClose={() => setProblem(null)} query={ledger} loadError="Failed to load the ledger. Please try again." />
        {/* On screen the page; on paper the prepared statement, when there is one. */}
        <div className={printed ? 'no-print' : undefined}>
          <DataTable
            caption={`Ledger of ${fullName}`}
            columns={COLUMNS}
            rows={ledger.data?.data}
            rowKey={(l) => l.id}
            loading={ledger.isPending || ledger.isPlaceholderData}
            empty={<Text c="dimmed">No ledger lines</Text>}
            paging={ledger.data ? { page, limit: LEDGER_PAGE_SIZE, total: ledger.data.total, onPage: setPage } : undefined}
          />
        </div>
        {printed && (
          <div className="print-only">
            <DataTable caption={`Printed ledger of ${fullName}`} columns={COLUMNS} rows={printed.paper.data} rowKey={(l) => l.id} empty={<Text>No ledger lines</Text>} />
          </div>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * The member's ledger (issue 24) and, below it, their statement over a period (issue 25). One of
 * them goes to paper at a time: the one last printed; the other stays off it.
 */
export function MemberLedger({ userId, fullName }: { userId: number; fullName: string }) {
  const [paper, setPaper] = useState<'ledger' | 'statement' | null>(null);
  return (
    <>
      <LedgerSection userId={userId} fullName={fullName} offPaper={paper === 'statement'} onPrint={() => setPaper('ledger')} />
      <div className={paper === 'ledger' ? 'no-print' : undefined}>
        <MemberStatementSection userId={userId} fullName={fullName} onPrint={(printing) => setPaper(printing ? 'statement' : null)} />
      </div>
    </>
  );
}
