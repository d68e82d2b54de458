import { Alert, Button, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconRefresh, IconUserCheck, IconUserOff, IconUsers, IconUserStar, type Icon } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { DashboardStats } from '../../../contract/dashboard';
import { dashboardStatsQuery, FALLBACK_STATS } from './dashboard.api';
import { DashboardCharts } from './dashboard-charts';
import { MemberOverview } from './member-overview';
import { StatCard } from './stat-card';

interface CardSpec {
  key: keyof DashboardStats;
  label: string;
  change: string;
  icon: Icon;
  color: string;
}

const CARDS: readonly CardSpec[] = [
  { key: 'totalUsers', label: 'Total Users', change: '+12%', icon: IconUsers, color: 'indigo' },
  { key: 'activeUsers', label: 'Active Users', change: '+8%', icon: IconUserCheck, color: 'teal' },
  { key: 'inactiveUsers', label: 'Inactive Users', change: '-3%', icon: IconUserOff, color: 'red' },
  { key: 'membershipUsers', label: 'Membership Users', change: '+15%', icon: IconUserStar, color: 'grape' },
];

export default function DashboardPage() {
  const stats = useQuery(dashboardStatsQuery());
  const failed = stats.isError;
  const shown = stats.data ?? (failed ? FALLBACK_STATS : null);

  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        Dashboard
      </Title>
      {failed && (
        <Alert
          color="red"
          variant="light"
          radius="md"
          icon={<IconAlertTriangle aria-hidden />}
          title="Error: Failed to load dashboard data"
          role="alert"
        >
          <Stack gap="sm" align="flex-start">
            <Text size="sm">Using fallback data. The displayed statistics may not be accurate.</Text>
            <Button
              variant="light"
              color="red"
              size="xs"
              leftSection={<IconRefresh size={14} aria-hidden />}
              onClick={() => stats.refetch()}
              loading={stats.isFetching}
            >
              Retry Loading Data
            </Button>
          </Stack>
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }} spacing="lg">
        {CARDS.map((card) => (
          <StatCard
            key={card.key}
            label={card.label}
            change={card.change}
            icon={card.icon}
            color={card.color}
            value={shown ? shown[card.key] : null}
            sample={failed && !stats.data}
          />
        ))}
      </SimpleGrid>
      {stats.data && <MemberOverview stats={stats.data} />}
      <DashboardCharts />
    </Stack>
  );
}
