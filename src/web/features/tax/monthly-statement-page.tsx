import { Group, Text, TextInput } from '@mantine/core';
import { IconArrowDownRight, IconArrowUpRight, IconScale } from '@tabler/icons-react';
import { taxApi, type StatementRow } from '../../../contract/tax';
import type { Column } from '../../components/data-table';
import { csvFile, ListPage } from '../../components/list-page';
import { PrintButton } from '../../components/print-button';
import { StatusBadge } from '../../components/status-badge';
import { SummaryCard, SummaryCards } from '../../components/summary-card';
import { useResource } from '../../components/use-resource';
import { errorMessage } from '../../lib/api-client';
import { formatCount, formatINR, indiaToday } from '../../lib/format';
import { monthlyStatementQuery } from './tax.api';

const DEFAULTS = { month: indiaToday().slice(0, 7) };
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
/** The address's month, a hand-edited one read as this month. */
const read = (f: typeof DEFAULTS): typeof DEFAULTS => (MONTH.test(f.month) ? f : DEFAULTS);

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
  const statement = useResource({ filters: DEFAULTS, read, query: (f) => monthlyStatementQuery(f.month), rowsOf: (d) => d.rows, onFailure: 'blank' });
  const { month } = statement.filters;
  const data = statement.list.data;

  return (
    <ListPage
      title="Monthly Statement"
      subtitle="Revenue, admin charges and expenses of a month, from the books"
      csv={csvFile(taxApi.monthlyCsv, { query: { month } }, `monthly-statement-${month}.csv`)}
      actions={<PrintButton label="Print statement" />}
      resource={statement}
      filters={
        <Group className="no-print">
          <TextInput
            type="month"
            label="Month"
            value={month}
            onChange={(e) => MONTH.test(e.currentTarget.value) && statement.setFilters({ month: e.currentTarget.value })}
            w={200}
          />
        </Group>
      }
      failure={statement.list.isError ? errorMessage(statement.list.error, 'Failed to load the statement. Please try again.') : null}
      summary={
        <SummaryCards>
          <SummaryCard label="Income" value={data ? formatINR(data.income) : null} icon={IconArrowUpRight} color="teal" />
          <SummaryCard label="Expenses" value={data ? formatINR(data.expenses) : null} icon={IconArrowDownRight} color="red" />
          <SummaryCard label="Net" value={data ? formatINR(data.net) : null} icon={IconScale} color={data && data.net < 0 ? 'red' : 'indigo'} />
        </SummaryCards>
      }
      caption={data ? `Income and expenses, ${data.label} (${data.from} – ${data.to})` : 'Income and expenses'}
      columns={COLUMNS}
      rowKey={(r) => r.code}
      empty={<Text c="dimmed">No income or expense accounts</Text>}
      footer={
        <Text size="xs" c="dimmed">
          Each account&apos;s movement in the month, summed from the books by India day. Income is what the company earned (membership fees, admin
          charges); expenses are what it paid out (level income, daily payouts gross, royalty, rewards, operator credits). TDS deducted is not income:
          it is owed to the government (TDS payable, on the Books screen).
        </Text>
      }
    />
  );
}
