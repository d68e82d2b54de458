import { Group, SimpleGrid, Skeleton, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { EarnedKind, MemberMoney } from '../../../contract/member-money';
import { Figure } from '../../components/figure';
import { QueryView } from '../../components/query-view';
import { MEMBERSHIP_STATUS, StatusBadge } from '../../components/status-badge';
import { formatINR } from '../../lib/format';
import { memberMoneyQuery } from './member-money.api';
import { MemberSection } from './member-sections';


/**
 * The member's money at a glance (issue 24): the balance, what they earned to date by kind (net of
 * TDS and admin charge and of reversals, each shown), what they still owe from reversed runs,
 * and their membership.
 */
export function MemberMoneySummary({ userId }: { userId: number }) {
  const money = useQuery(memberMoneyQuery(userId));
  return (
    <MemberSection id="money-title" title="Money" gap="md">
      <QueryView query={money} skeleton={<Skeleton h={140} aria-label="Loading the member's money" />} failure={'Failed to load the member\u2019s money. Please try again.'}>
        {(m) => <MoneyFigures m={m} />}
      </QueryView>
    </MemberSection>
  );
}

function MoneyFigures({ m }: { m: MemberMoney }) {
  const { earned } = m;
  const rows: [string, EarnedKind][] = [
    ['Level income', earned.levelIncome],
    ['Daily payout', earned.dailyPayout],
    ['Royalty', earned.royalty],
    ['Rewards', earned.rewards],
  ];
  const status = m.membership ? MEMBERSHIP_STATUS[m.membership.status] : null;
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md">
        <Figure label="Balance">{formatINR(m.balance)}</Figure>
        <Figure label="Earned to date (net)">{formatINR(earned.totalNet)}</Figure>
        <Figure label="Recovery owed">
          <Text span inherit>
            {formatINR(m.recoveryOwed)}
          </Text>
        </Figure>
        <Figure label="Membership">
          {m.membership && status ? (
            <Group gap="xs" wrap="nowrap">
              <Text span inherit>
                {m.membership.planName ?? 'Before the income engine'}
              </Text>
              <StatusBadge tone={status.tone}>{status.label}</StatusBadge>
            </Group>
          ) : (
            <Text span inherit c="dimmed" fw={400}>
              None
            </Text>
          )}
        </Figure>
      </SimpleGrid>
      <Table withTableBorder verticalSpacing={6} aria-describedby="earned-note">
        <caption className="visually-hidden">Earned to date by kind</caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Earned to date</Table.Th>
            <Table.Th scope="col" ta="right">Gross</Table.Th>
            <Table.Th scope="col" ta="right">TDS and admin charge</Table.Th>
            <Table.Th scope="col" ta="right">Reversed</Table.Th>
            <Table.Th scope="col" ta="right">Net</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map(([label, k]) => (
            <Table.Tr key={label}>
              <Table.Th scope="row" fw={500}>{label}</Table.Th>
              <Table.Td ta="right">{formatINR(k.gross)}</Table.Td>
              <Table.Td ta="right">{formatINR(k.deductions === 0 ? 0 : -k.deductions)}</Table.Td>
              <Table.Td ta="right">{formatINR(k.reversed === 0 ? 0 : -k.reversed)}</Table.Td>
              <Table.Td ta="right" fw={600}>{formatINR(k.net)}</Table.Td>
            </Table.Tr>
          ))}
          <Table.Tr>
            <Table.Th scope="row">Total</Table.Th>
            <Table.Td />
            <Table.Td />
            <Table.Td />
            <Table.Td ta="right" fw={700}>{formatINR(earned.totalNet)}</Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed" id="earned-note">
        {`Net is what the member kept: gross, less TDS and admin charge, less what reversals of runs took back.${
          m.recovered > 0 ? ` Recoveries have since taken ${formatINR(m.recovered)} from later credits.` : ''}`}
      </Text>
    </Stack>
  );
}
