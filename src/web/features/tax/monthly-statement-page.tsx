import { useState } from 'react';
import { Alert, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle, IconArrowDownRight, IconArrowUpRight, IconScale } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { taxApi, type StatementRow } from '../../../contract/tax';
import { CsvButton } from '../../components/csv-button';
import { DataTable, type Column } from '../../components/data-table';
import { PrintButton } from '../../components/print-button';
import { StatusBadge } from '../../components/status-badge';
import { SummaryCard } from '../../components/summary-card';
import { useListState } from '../../components/use-url-state';
import { errorMessage } from '../../lib/api-client';
import { formatCount, formatINR, indiaToday } from '../../lib/format';
import { monthlyStatementQuery } from './tax.api';

const DEFAULTS = { month: indiaToday().slice(0, 7) };
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

const COLUMNS: Column<StatementRow>[] = [
  { header: 'Type', cell: (r) => <StatusBadge tone={r.type === 'income' ? 'positive' : 'neutral'}>{r.type === 'income' ? 'Income' : 'Expense'}</StatusBadge> },
  { header: 'Account', cell: (r) => r.name },
  { header: 'Amount', cell: (r) => formatINR(r.amount) },
  { header: 'Postings', cell: (r) => formatCount(r.legs) },
];

/**
 * Reports › Monthly Statement: a month's revenue, admin charges and expenses from the books — each
 * income and expense account's movement that month (income earned, expenses spent) and the net.
 */
export default function MonthlyStatementPage() {
  const { filters, setFilters } = useListState(DEFAULTS);
  const month = MONTH.test(filters.month) ? filters.month : DEFAULTS.month;
  const statement = useQuery(monthlyStatementQuery(month));
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const data = statement.data;

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <div>
          <Title order={1} size="h2">
            Monthly Statement
          </Title>
          <Text c="dimmed">Revenue, admin charges and expenses of a month, from the books</Text>
        </div>
        <Group gap="sm" className="no-print">
          <CsvButton endpoint={taxApi.monthlyCsv} input={{ query: { month } }} filename={`monthly-statement-${month}.csv`} onError={setDownloadError} />
          <PrintButton label="Print statement" />
        </Group>
      </Group>
      <Group className="no-print">
        <TextInput
          type="month"
          label="Month"
          value={month}
          onChange={(e) => MONTH.test(e.currentTarget.value) && setFilters({ month: e.currentTarget.value })}
          w={200}
        />
      </Group>
      {(statement.isError || downloadError) && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
          {statement.isError ? errorMessage(statement.error, 'Failed to load the statement. Please try again.') : downloadError}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
        <SummaryCard label="Income" value={data ? formatINR(data.income) : null} icon={IconArrowUpRight} color="teal" />
        <SummaryCard label="Expenses" value={data ? formatINR(data.expenses) : null} icon={IconArrowDownRight} color="red" />
        <SummaryCard label="Net" value={data ? formatINR(data.net) : null} icon={IconScale} color={data && data.net < 0 ? 'red' : 'indigo'} />
      </SimpleGrid>
      <DataTable
        caption={data ? `Income and expenses, ${data.label} (${data.from} – ${data.to})` : 'Income and expenses'}
        columns={COLUMNS}
        rows={data?.rows}
        rowKey={(r) => r.code}
        loading={statement.isPending || statement.isPlaceholderData}
        empty={<Text c="dimmed">No income or expense accounts</Text>}
      />
      <Text size="xs" c="dimmed">
        Each account&apos;s movement in the month, summed from the books by India day. Income is what the company earned (membership fees, admin
        charges); expenses are what it paid out (level income, daily payouts gross, royalty, rewards, operator credits). TDS deducted is not income:
        it is owed to the government (TDS payable, on the Books screen).
      </Text>
    </Stack>
  );
}
