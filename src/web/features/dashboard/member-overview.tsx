import { Card, Group, RingProgress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { DashboardStats } from '../../../contract/dashboard';
import { formatCount } from '../../lib/format';

function share(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 100) : 0;
}

function Ratio({ label, part, whole, color }: { label: string; part: number; whole: number; color: string }) {
  const percent = share(part, whole);
  return (
    <Group wrap="nowrap" gap="md">
      <RingProgress
        size={96}
        thickness={10}
        roundCaps
        sections={[{ value: percent, color }]}
        label={
          <Text ta="center" fw={700} size="sm">
            {percent}%
          </Text>
        }
        aria-label={`${label}: ${percent}%`}
      />
      <Stack gap={2}>
        <Text fw={600}>{label}</Text>
        <Text size="sm" c="dimmed">
          {formatCount(part)} of {formatCount(whole)} members
        </Text>
      </Stack>
    </Group>
  );
}

/** Shares computed from the loaded figures; never drawn from fallback data. */
export function MemberOverview({ stats }: { stats: DashboardStats }) {
  return (
    <Card padding="lg" component="section" aria-labelledby="member-overview-title">
      <Title order={2} size="h4" id="member-overview-title" mb="md">
        Member overview
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        <Ratio label="Active members" part={stats.activeUsers} whole={stats.totalUsers} color="teal" />
        <Ratio label="Members with a membership" part={stats.membershipUsers} whole={stats.totalUsers} color="grape" />
      </SimpleGrid>
    </Card>
  );
}
