import type { ReactNode } from 'react';
import { Group, Paper, Progress, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Figure } from '../../components/figure';
import { QueryView } from '../../components/query-view';
import { MEMBERSHIP_STATUS, StatusBadge } from '../../components/status-badge';
import { formatDateTime, formatINR } from '../../lib/format';
import { membershipDetailQuery, type MembershipDetail } from './activation.queries';


const paidViaText = (m: MembershipDetail) =>
  m.paidVia === 'wallet'
    ? 'Wallet'
    : m.paidVia === 'outside'
      ? `Outside: ${m.paymentMethod ?? ''}${m.paymentReference ? ` (ref. ${m.paymentReference})` : ''}`
      : 'N/A';

/**
 * A member's membership as the engine keeps it: the plan and the terms it was sold with, what it
 * has earned against its cap and over how many of its days, its status and how it was paid.
 * `action` (the Activate Membership button) shows when the member has none.
 */
export function MembershipCard({ userId, action }: { userId: number; action?: ReactNode }) {
  const query = useQuery(membershipDetailQuery(userId));
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="membership-title">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4" id="membership-title">
            Membership
          </Title>
          {query.data && <StatusBadge tone={MEMBERSHIP_STATUS[query.data.status].tone}>{MEMBERSHIP_STATUS[query.data.status].label}</StatusBadge>}
        </Group>
        <QueryView query={query} skeleton={<Skeleton h={60} aria-label="Loading the membership" />} failure="Failed to load the membership. Please try again.">
          {(m) =>
            m === null ? (
              <Group justify="space-between">
                <Text size="sm" c="dimmed">
                  No membership yet.
                </Text>
                {action}
              </Group>
            ) : (
              <Details m={m} />
            )
          }
        </QueryView>
      </Stack>
    </Paper>
  );
}

function Details({ m }: { m: MembershipDetail }) {
  const percent = m.cap > 0 ? Math.min(100, (m.earned / m.cap) * 100) : 0;
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
        <Figure size="sm" label="Plan">{m.planName ?? 'Before the income engine'}</Figure>
        <Figure size="sm" label="Price">{formatINR(m.price)}</Figure>
        <Figure size="sm" label="Daily amount">{formatINR(m.dailyAmount)}</Figure>
        <Figure size="sm" label="Days earned">{`${m.daysEarned} / ${m.durationDays}`}</Figure>
        <Figure size="sm" label="Starts on">{m.startsOn ?? 'N/A'}</Figure>
        <Figure size="sm" label="Paid via">{paidViaText(m)}</Figure>
        <Figure size="sm" label="Activated">{formatDateTime(m.activatedAt)}</Figure>
      </SimpleGrid>
      <div>
        <Group justify="space-between" mb={4}>
          <Text size="xs" c="dimmed">
            Earned / cap
          </Text>
          <Text size="sm" fw={500}>{`${formatINR(m.earned)} / ${formatINR(m.cap)}`}</Text>
        </Group>
        <Progress value={percent} aria-label={`Earned ${formatINR(m.earned)} of the ${formatINR(m.cap)} cap`} />
      </div>
    </Stack>
  );
}
