import { useState, type FormEvent } from 'react';
import { Anchor, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconCalendar, IconScale, IconSearch } from '@tabler/icons-react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { BOOK_ACCOUNT_CODES, type BookAccountCode, type TrialBalance, type TrialBalanceAccount } from '../../../contract/books';
import { CsvButton } from '../../components/csv-button';
import { DataTable, type Column } from '../../components/data-table';
import { ErrorAlert } from '../../components/error-alert';
import { PrintButton } from '../../components/print-button';
import { StatusBadge, type Tone } from '../../components/status-badge';
import { TotalCards, type Total } from '../../components/summary-card';
import { TruncatedText } from '../../components/truncated-text';
import { useListState } from '../../components/use-url-state';
import { errorMessage } from '../../lib/api-client';
import { currentMonthRange, formatDate, formatINR, indiaToday } from '../../lib/format';
import { AccountStatementView } from './account-statement';
import { BOOKS_VIEW, trialBalanceCsv, trialBalanceQuery } from './books.api';
import { Amount } from './money-sides';
import { TransferModal } from './transfer-modal';

const TYPE_TONES: Record<TrialBalanceAccount['type'], Tone> = { asset: 'info', liability: 'warning', income: 'positive', expense: 'neutral' };
const TYPE_LABELS: Record<TrialBalanceAccount['type'], string> = { asset: 'Asset', liability: 'Liability', income: 'Income', expense: 'Expense' };

/** A row of the trial balance: an account, or the totals (type null) under them. */
type TbRow = Pick<TrialBalanceAccount, 'name' | 'description' | 'debit' | 'credit'> & { code: string; type: TrialBalanceAccount['type'] | null };

const TOTALS: Total<TrialBalance>[] = [
  { label: 'As at the end of', value: (tb) => formatDate(tb.date), icon: IconCalendar, color: 'indigo' },
  { label: 'Total debits', value: (tb) => formatINR(tb.totalDebit), icon: IconScale, color: 'orange' },
  { label: 'Total credits', value: (tb) => formatINR(tb.totalCredit), icon: IconScale, color: 'teal' },
];

const isAccount = (code: string): code is BookAccountCode => (BOOK_ACCOUNT_CODES as readonly string[]).includes(code);
const isDay = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v);

/** The trial balance's first request, started when the sidebar link is pressed (screens.ts). */
export function prefetch(client: QueryClient): void {
  void client.prefetchQuery(trialBalanceQuery(''));
}

function AsAtForm({ initial, onSearch }: { initial: string; onSearch: (date: string) => void }) {
  const [date, setDate] = useState(initial);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(date);
  };
  return (
    <Paper withBorder radius="md" p="md" className="no-print">
      <form onSubmit={submit} noValidate aria-label="Trial balance date">
        <Group align="flex-end" gap="md">
          <TextInput type="date" label="Balances at the end of" value={date} max={indiaToday()} onChange={(e) => setDate(e.currentTarget.value)} />
          <Button type="submit" leftSection={<IconSearch size={16} aria-hidden />}>
            Show
          </Button>
          {initial && (
            <Button variant="default" onClick={() => { setDate(''); onSearch(''); }}>
              Today
            </Button>
          )}
        </Group>
      </form>
    </Paper>
  );
}

/**
 * The Books screen (issue 25): the trial balance at the end of any India day — every account of
 * the chart with its debit or credit balance, the totals and whether they agree; an account opens
 * its statement over a period, a transfer opens with all its legs. The day, the account, its period
 * and the page are kept in the address.
 */
export default function BooksPage() {
  const { filters, setFilters, page, setPage } = useListState(BOOKS_VIEW);
  const [problem, setProblem] = useState<string | null>(null);
  const date = isDay(filters.date) ? filters.date : '';
  const tb = useQuery(trialBalanceQuery(date));
  const account = isAccount(filters.account) ? filters.account : null;
  const month = currentMonthRange();
  const from = isDay(filters.from) ? filters.from : month.from;
  const to = isDay(filters.to) ? filters.to : month.to;
  // The transfer open over the screen (not in the address: opening one keeps the statement's page).
  const [transfer, openTransfer] = useState<number | null>(null);

  const columns: Column<TbRow>[] = [
    {
      header: 'Account',
      cell: (a) => (a.type === null ? (
        <Text fw={700}>Total</Text>
      ) : (
        <div>
          <Anchor component="button" type="button" fw={500} size="sm" onClick={() => setFilters({ account: a.code })} aria-label={`Open the statement of ${a.name}`}>
            {a.name}
          </Anchor>
          <TruncatedText size="xs" c="dimmed" maxWidth={360}>
            {a.description}
          </TruncatedText>
        </div>
      )),
    },
    { header: 'Code', cell: (a) => (a.type === null ? null : <Text size="xs" ff="monospace">{a.code}</Text>) },
    { header: 'Type', cell: (a) => (a.type === null ? null : <StatusBadge tone={TYPE_TONES[a.type]}>{TYPE_LABELS[a.type]}</StatusBadge>) },
    { header: 'Debit', cell: (a) => <Amount value={a.debit} strong={a.type === null} />, width: 160 },
    { header: 'Credit', cell: (a) => <Amount value={a.credit} strong={a.type === null} />, width: 160 },
  ];

  const data = tb.data;
  const accountName = data?.accounts.find((a) => a.code === account)?.name ?? account ?? '';

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1} size="h2">
          Books
        </Title>
        {!account && (
          <Group gap="sm" className="no-print">
            <CsvButton endpoint={trialBalanceCsv.endpoint} input={trialBalanceCsv.input(date)} filename="trial-balance.csv" onError={setProblem} />
            <PrintButton label="Print trial balance" />
          </Group>
        )}
      </Group>
      <ErrorAlert error={problem} onClose={() => setProblem(null)} />
      {account ? (
        <AccountStatementView
          code={account}
          name={accountName}
          from={from}
          to={to}
          page={page}
          onPage={setPage}
          onPeriod={(range) => setFilters({ from: range.from, to: range.to })}
          onBack={() => setFilters({ account: '', from: '', to: '' })}
          onTransfer={openTransfer}
        />
      ) : (
        <>
          <AsAtForm key={date} initial={date} onSearch={(d) => setFilters({ date: d })} />
          {tb.isError && <ErrorAlert error={errorMessage(tb.error, 'Failed to load the trial balance. Please try again.')} onRetry={() => tb.refetch()} />}
          <TotalCards data={data} totals={TOTALS} />
          {data && (
            <Group gap="sm" role="status">
              {data.balanced ? (
                <StatusBadge tone="positive">Balanced</StatusBadge>
              ) : (
                <StatusBadge tone="negative">{`Out of balance by ${formatINR(Math.abs(data.difference))}`}</StatusBadge>
              )}
              <Text size="sm" c="dimmed">
                Debit balances (assets, expenses) on the left, credit balances (liabilities, income) on the right; the two totals agree when the books balance.
              </Text>
            </Group>
          )}
          <DataTable
            caption={data ? `Trial balance at the end of ${formatDate(data.date)}` : 'Trial balance'}
            columns={columns}
            rows={data ? [...data.accounts, { code: 'total', name: 'Total', description: '', type: null, debit: data.totalDebit, credit: data.totalCredit }] : undefined}
            rowKey={(a) => a.code}
            loading={tb.isPending || tb.isPlaceholderData}
            empty={<Text c="dimmed">No accounts</Text>}
          />
        </>
      )}
      <TransferModal id={transfer} onClose={() => openTransfer(null)} onTransfer={openTransfer} />
    </Stack>
  );
}
