import { List, Stack, Table, Text } from '@mantine/core';
import type { Approval } from '../../../contract/approvals';

const LABELS: Record<string, string> = { tds: 'TDS', ifsc: 'IFSC', pan: 'PAN', tdsWithoutPan: 'TDS without PAN' };

/** "dailyAmount" → "Daily amount". */
const labelOf = (key: string) => {
  if (LABELS[key]) return LABELS[key];
  const words = key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const shown = (value: unknown) => (value === null || value === undefined ? '—' : typeof value === 'object' ? JSON.stringify(value) : String(value));

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** One row of a before/after table: what the field was, what it becomes. */
export interface ChangeRow {
  key: string;
  label: string;
  before: string;
  after: string;
}

/** Field | Before | After, the changed rows in bold: the one table a checker reads a change in. */
export function BeforeAfterTable({ label, rows }: { label: string; rows: ChangeRow[] }) {
  return (
    <Table withTableBorder aria-label={label}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Field</Table.Th>
          <Table.Th>Before</Table.Th>
          <Table.Th>After</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={row.key} fw={row.before !== row.after ? 700 : undefined}>
            <Table.Td>{row.label}</Table.Td>
            <Table.Td>{row.before}</Table.Td>
            <Table.Td>{row.after}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * What the checker sees of a request beside its amount (issue 22): a compensation change's every
 * field before and after (changed rows in bold) and its projected cost over the first 30 days,
 * with how it was computed; an activation's payment or a re-run's preview as plain rows.
 */
export function ChangeDetails({ details }: { details: Approval['details'] }) {
  if (!details) return null;
  const { before, after, fields, projectedCost, projectedCostBefore, projection, basis, ...rest } = details;
  if (isRecord(after)) {
    const previous = isRecord(before) ? before : null;
    const ordered = Array.isArray(fields) ? fields.map(String) : [];
    const keys = [...new Set([...ordered, ...Object.keys(after), ...Object.keys(previous ?? {})])];
    return (
      <Stack gap="xs">
        <BeforeAfterTable
          label="What changes"
          rows={keys.map((key) => ({ key, label: labelOf(key), before: previous ? shown(previous[key]) : '—', after: shown(after[key]) }))}
        />
        {typeof projectedCost === 'string' && (
          <Text fw={700}>
            {`Projected cost over the first 30 days: ${projectedCost}`}
            {typeof projectedCostBefore === 'string' ? ` (${projectedCostBefore} with what it replaces)` : ''}
          </Text>
        )}
        {Array.isArray(projection) && (
          <List size="sm" spacing={2}>
            {projection.filter(isRecord).map((line) => (
              <List.Item key={String(line.label)}>{`${String(line.label)}: ${String(line.amount)}`}</List.Item>
            ))}
          </List>
        )}
        {typeof basis === 'string' && <Text size="xs" c="dimmed">{basis}</Text>}
      </Stack>
    );
  }
  const rows = Object.entries(rest);
  if (rows.length === 0) return null;
  return (
    <Table withTableBorder aria-label="Details">
      <Table.Tbody>
        {rows.map(([key, value]) => (
          <Table.Tr key={key}>
            <Table.Td>{labelOf(key)}</Table.Td>
            <Table.Td>{shown(value)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
