import { useState } from 'react';
import { Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { MemberStatementLine } from '../../../contract/books';
import { csvFile } from '../../components/list-page';
import { PaperHeading, SectionBar, SectionProblems, usePrintout } from './member-sections';
import { Figure } from '../../components/figure';
import { DataTable, type Column } from '../../components/data-table';
import { DateRangeFilter } from '../../components/date-range-filter';
import { KindCell } from '../../components/kind-cell';
import { currentMonthRange, formatDate, formatDateTime, formatINR } from '../../lib/format';
import {
  PRINTED_STATEMENT_LIMIT, STATEMENT_PAGE_SIZE, memberStatementQuery, statementCsvEndpoint, statementCsvInput,
} from './member-statement.api';

const COLUMNS: Column<MemberStatementLine>[] = [
  { header: 'Date & Time', cell: (l) => formatDateTime(l.dateTime), width: 170 },
  {
    header: 'Kind',
    cell: (l) => <KindCell label={l.kindLabel} description={l.description} />,
  },
  { header: 'Counter-account', cell: (l) => l.counterAccount },
  { header: 'Credit', cell: (l) => (l.credit !== null ? <Text size="sm" c="teal" fw={600}>{`+${formatINR(l.credit)}`}</Text> : null) },
  { header: 'Debit', cell: (l) => (l.debit !== null ? <Text size="sm" c="red" fw={600}>{`-${formatINR(l.debit)}`}</Text> : null) },
  { header: 'Balance After', cell: (l) => formatINR(l.balanceAfter) },
];

/**
 * The member's statement (issue 25): the wallet over a period — opening balance, every line
 * oldest first with the company account on its other side in words, the period's credits and
 * debits, closing balance — on screen a page at a time, printed whole (up to 500 lines) and as CSV.
 * `onPrint` tells the page a statement is going to paper (the ledger above then stays off it).
 */
export function MemberStatementSection({ userId, fullName, onPrint }: { userId: number; fullName: string; onPrint: (printing: boolean) => void }) {
  const [range, setRange] = useState(() => currentMonthRange());
  const [page, setPage] = useState(1);
  const [problem, setProblem] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const statement = useQuery(memberStatementQuery(userId, range.from, range.to, page));
  const s = statement.data;
  const { printed, clear, ...printout } = usePrintout(
    () => queryClient.fetchQuery(memberStatementQuery(userId, range.from, range.to, 1, PRINTED_STATEMENT_LIMIT)),
    'Failed to prepare the statement',
    setProblem,
    () => onPrint(true),
  );
  const paper = printed?.paper;

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="statement-title">
      <Stack gap="md">
        {paper && printed && (
          <PaperHeading
            title="Statement of account"
            fullName={fullName}
            userId={userId}
            lines={[
              `Period: ${formatDate(paper.fromDate)} to ${formatDate(paper.toDate)}`,
              `Opening balance ${formatINR(paper.opening)} · Credits ${formatINR(paper.credits)} · Debits ${formatINR(paper.debits)} · Closing balance ${formatINR(paper.closing)}`,
            ]}
            printedAt={printed.at}
            shown={paper.lines.length}
            total={paper.total}
            which="first"
          />
        )}
        <SectionBar
          id="statement-title"
          title="Statement"
          csv={csvFile(statementCsvEndpoint, statementCsvInput(userId, range.from, range.to), `member-${userId}-statement.csv`)}
          onError={setProblem}
          printLabel="Print statement"
          printout={printout}
        />
        <div className="no-print">
          <DateRangeFilter
            label="Statement period"
            require="both"
            initial={range}
            onSearch={(r) => {
              setRange(r);
              setPage(1);
              clear();
              onPrint(false);
            }}
          />
        </div>
        <SectionProblems problem={problem} onClose={() => setProblem(null)} query={statement} loadError="Failed to load the statement. Please try again." />
        <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md" className={paper ? 'no-print' : undefined}>
          <Figure label="Opening balance">{s ? formatINR(s.opening) : '…'}</Figure>
          <Figure label="Credits">{s ? formatINR(s.credits) : '…'}</Figure>
          <Figure label="Debits">{s ? formatINR(s.debits) : '…'}</Figure>
          <Figure label="Closing balance">{s ? formatINR(s.closing) : '…'}</Figure>
        </SimpleGrid>
        <div className={paper ? 'no-print' : undefined}>
          <DataTable
            caption={`Statement of ${fullName}, ${formatDate(range.from)} to ${formatDate(range.to)}`}
            columns={COLUMNS}
            rows={s?.lines}
            rowKey={(l) => l.id}
            loading={statement.isPending || statement.isPlaceholderData}
            empty={<Text c="dimmed">No lines in this period</Text>}
            paging={s ? { page, limit: STATEMENT_PAGE_SIZE, total: s.total, onPage: setPage } : undefined}
          />
        </div>
        {paper && (
          <div className="print-only">
            <DataTable caption={`Statement of ${fullName}`} columns={COLUMNS} rows={paper.lines} rowKey={(l) => l.id} empty={<Text>No lines in this period</Text>} />
          </div>
        )}
      </Stack>
    </Paper>
  );
}
