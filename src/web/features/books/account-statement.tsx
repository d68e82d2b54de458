import { useState } from 'react';
import { Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { AccountStatement, BookAccountCode, StatementLeg } from '../../../contract/books';
import { CsvButton } from '../../components/csv-button';
import { DataTable, type Column } from '../../components/data-table';
import { DateRangeFilter } from '../../components/date-range-filter';
import { ErrorAlert } from '../../components/error-alert';
import { PrintButton } from '../../components/print-button';
import { TotalCards, type Total } from '../../components/summary-card';
import { KindCell } from '../../components/kind-cell';
import { TruncatedText } from '../../components/truncated-text';
import { errorMessage } from '../../lib/api-client';
import { formatCount, formatDate, formatDateTime, formatINR } from '../../lib/format';
import { memberPath } from '../../lib/paths';
import { IconArrowDownRight, IconArrowUpRight, IconFlag, IconFlagCheck } from '@tabler/icons-react';
import { STATEMENT_PAGE_SIZE, statementCsv, statementQuery } from './books.api';
import { Amount, sidedText } from './money-sides';

const TOTALS: Total<AccountStatement>[] = [
  { label: 'Opening balance', value: (s) => sidedText(s.openingSide), icon: IconFlag, color: 'gray' },
  { label: 'Debits', value: (s) => formatINR(s.debits), icon: IconArrowDownRight, color: 'orange' },
  { label: 'Credits', value: (s) => formatINR(s.credits), icon: IconArrowUpRight, color: 'teal' },
  { label: 'Closing balance', value: (s) => sidedText(s.closingSide), icon: IconFlagCheck, color: 'indigo' },
];

function columns(onTransfer: (id: number) => void, wallets: boolean): Column<StatementLeg>[] {
  return [
    { header: 'Date & Time', cell: (l) => formatDateTime(l.dateTime), width: 170 },
    {
      header: 'Transfer',
      cell: (l) => (
        <Anchor component="button" type="button" size="sm" onClick={() => onTransfer(l.transferId)} aria-label={`Open transfer ${l.transferId}`}>
          {`#${l.transferId}`}
        </Anchor>
      ),
      width: 100,
    },
    {
      header: 'Kind',
      cell: (l) => <KindCell label={l.kindLabel} description={l.description} />,
    },
    ...(wallets
      ? [{
        header: 'Member',
        cell: (l: StatementLeg) => (l.member ? (
          <Anchor component={Link} to={memberPath(l.member.userId)} size="sm">
            {l.member.name ?? `Member #${l.member.userId}`}
          </Anchor>
        ) : null),
      }]
      : []),
    { header: 'Caused by', cell: (l) => <TruncatedText size="sm" maxWidth={240}>{l.cause.text}</TruncatedText> },
    { header: 'Debit', cell: (l) => <Amount value={l.debit} /> },
    { header: 'Credit', cell: (l) => <Amount value={l.credit} /> },
    { header: 'Balance After', cell: (l) => sidedText({ debit: l.balanceAfter < 0 ? -l.balanceAfter : null, credit: l.balanceAfter > 0 ? l.balanceAfter : null }) },
  ];
}

interface Props {
  code: BookAccountCode;
  name: string;
  from: string;
  to: string;
  page: number;
  onPage: (page: number) => void;
  onPeriod: (range: { from: string; to: string }) => void;
  onBack: () => void;
  onTransfer: (id: number) => void;
}

/** One account over a period (issue 25): opening, debits, credits, closing, and its legs a page at a time. */
export function AccountStatementView({ code, name, from, to, page, onPage, onPeriod, onBack, onTransfer }: Props) {
  const [problem, setProblem] = useState<string | null>(null);
  const statement = useQuery(statementQuery(code, from, to, page));
  const s = statement.data;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="statement-title">
      <Stack gap="md">
        <Group justify="space-between">
          <div>
            <Title order={2} size="h3" id="statement-title">
              {`Statement: ${name}`}
            </Title>
            <Text size="sm" c="dimmed">{`${formatDate(from)} to ${formatDate(to)}`}</Text>
          </div>
          <Group gap="sm" className="no-print">
            <Button variant="default" leftSection={<IconArrowLeft size={16} aria-hidden />} onClick={onBack}>
              Trial balance
            </Button>
            <CsvButton endpoint={statementCsv.endpoint} input={statementCsv.input(code, from, to)} filename={`${code}-statement.csv`} onError={setProblem} />
            <PrintButton label="Print statement" />
          </Group>
        </Group>
        <div className="no-print">
          <DateRangeFilter key={`${from}-${to}`} label="Statement period" require="both" initial={{ from, to }} onSearch={onPeriod} />
        </div>
        <ErrorAlert error={problem} onClose={() => setProblem(null)} />
        {statement.isError && (
          <ErrorAlert error={errorMessage(statement.error, 'Failed to load the statement. Please try again.')} onRetry={() => statement.refetch()} />
        )}
        <TotalCards data={s} totals={TOTALS} cols={{ base: 2, md: 4 }} spacing="md" />
        {s && (
          <Text size="xs" c="dimmed">
            {`${formatCount(s.total)} ${s.total === 1 ? 'leg' : 'legs'} in the period; net movement ${formatINR(s.movement)} (credits less debits). Opening plus movement is the closing balance.`}
          </Text>
        )}
        <DataTable
          caption={`Legs of ${name}`}
          columns={columns(onTransfer, code === 'member_wallets')}
          rows={s?.legs}
          rowKey={(l) => l.id}
          loading={statement.isPending || statement.isPlaceholderData}
          empty={<Text c="dimmed">No legs in this period</Text>}
          paging={s ? { page, limit: STATEMENT_PAGE_SIZE, total: s.total, onPage } : undefined}
        />
      </Stack>
    </Paper>
  );
}
