import '@mantine/charts/styles.css';
import { AreaChart, BarChart } from '@mantine/charts';
import { Alert, Card, SimpleGrid, Skeleton, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { errorMessage } from '../../lib/api-client';
import { formatINR, INDIA_ZONE, localDay } from '../../lib/format';
import { dashboardChartsQuery } from './dashboard.api';

const dayLabel = new Intl.DateTimeFormat('en-IN', { timeZone: INDIA_ZONE, day: '2-digit', month: 'short' });

function ChartCard({ title, summary, children }: { title: string; summary: string; children: React.ReactNode }) {
  return (
    <Card padding="lg" component="section" aria-label={title}>
      <Title order={2} size="h5">
        {title}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {summary}
      </Text>
      {children}
    </Card>
  );
}

/** The last 30 days from the database: new members, revenue, payouts success vs failure. */
export function DashboardCharts() {
  const charts = useQuery(dashboardChartsQuery());
  if (charts.isError) {
    return (
      <Alert color="red" role="alert">
        {errorMessage(charts.error, 'Failed to load the charts')}
      </Alert>
    );
  }
  if (!charts.data) {
    return (
      <SimpleGrid cols={{ base: 1, lg: 3 }} spacing="lg">
        {[1, 2, 3].map((i) => (
          <Skeleton key={i} height={300} radius="md" aria-label="Loading chart" />
        ))}
      </SimpleGrid>
    );
  }
  const data = charts.data.days.map((d) => ({ ...d, day: dayLabel.format(new Date(localDay(d.date))) }));
  const total = (key: 'newMembers' | 'revenue' | 'payoutsSuccess' | 'payoutsFailure') => data.reduce((a, d) => a + d[key], 0);
  return (
    <SimpleGrid cols={{ base: 1, lg: 3 }} spacing="lg">
      <ChartCard title="New members per day" summary={`${total('newMembers').toLocaleString('en-IN')} in the last 30 days`}>
        <BarChart h={220} data={data} dataKey="day" series={[{ name: 'newMembers', label: 'New members', color: 'indigo.6' }]} tickLine="none" gridAxis="y" />
      </ChartCard>
      <ChartCard title="Revenue per day" summary={`${formatINR(total('revenue'))} in membership fees`}>
        <AreaChart
          h={220}
          data={data}
          dataKey="day"
          series={[{ name: 'revenue', label: 'Revenue', color: 'teal.6' }]}
          valueFormatter={(v) => formatINR(v)}
          curveType="monotone"
          tickLine="none"
          gridAxis="y"
          withDots={false}
        />
      </ChartCard>
      <ChartCard
        title="Payouts: success vs failure"
        summary={`${total('payoutsSuccess').toLocaleString('en-IN')} successful, ${total('payoutsFailure').toLocaleString('en-IN')} failed`}
      >
        <BarChart
          h={220}
          data={data}
          dataKey="day"
          type="stacked"
          series={[
            { name: 'payoutsSuccess', label: 'Success', color: 'teal.6' },
            { name: 'payoutsFailure', label: 'Failure', color: 'red.6' },
          ]}
          tickLine="none"
          gridAxis="y"
          withLegend
        />
      </ChartCard>
    </SimpleGrid>
  );
}
