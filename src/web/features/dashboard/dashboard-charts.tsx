import '@mantine/charts/styles.css';
import { AreaChart, BarChart } from '@mantine/charts';
import { useEffect, useRef, useState } from 'react';
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

/**
 * Whether the charts may be drawn: once their grid is on screen (it has a width), one task later.
 * Issue 24: the layout renders the dashboard hidden behind 'Loading dashboard...' (display:none,
 * no width); drawing the three charts (~50–200 ms in Chromium here) happened inside the frame that
 * showed the shell, so the loading screen stayed 513–571 ms instead of 500. Now that frame paints
 * the cards and the charts' frames, and the charts are drawn in the next task.
 */
function useDrawable() {
  const ref = useRef<HTMLDivElement>(null);
  const [drawable, setDrawable] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || drawable) return;
    let timer: number | undefined;
    const observer = new ResizeObserver((entries) => {
      if (timer === undefined && entries.some((e) => e.contentRect.width > 0)) timer = window.setTimeout(() => setDrawable(true), 0);
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      window.clearTimeout(timer);
    };
  }, [drawable]);
  return { ref, drawable };
}

/** A chart's place until it may be drawn: its height, so nothing moves when it is. */
const ChartPlace = () => <Skeleton height={220} radius="sm" animate={false} aria-hidden />;

/** The last 30 days from the database: new members, revenue, payouts success vs failure. */
export function DashboardCharts() {
  const charts = useQuery(dashboardChartsQuery());
  const { ref, drawable } = useDrawable();
  if (charts.isError) {
    return (
      <Alert color="red" role="alert">
        {errorMessage(charts.error, 'Failed to load the charts')}
      </Alert>
    );
  }
  if (!charts.data) {
    return (
      <SimpleGrid ref={ref} cols={{ base: 1, lg: 3 }} spacing="lg">
        {[1, 2, 3].map((i) => (
          <Skeleton key={i} height={300} radius="md" aria-label="Loading chart" />
        ))}
      </SimpleGrid>
    );
  }
  const data = charts.data.days.map((d) => ({ ...d, day: dayLabel.format(new Date(localDay(d.date))) }));
  const total = (key: 'newMembers' | 'revenue' | 'payoutsSuccess' | 'payoutsFailure') => data.reduce((a, d) => a + d[key], 0);
  return (
    <SimpleGrid ref={ref} cols={{ base: 1, lg: 3 }} spacing="lg">
      <ChartCard title="New members per day" summary={`${total('newMembers').toLocaleString('en-IN')} in the last 30 days`}>
        {drawable ? (
          <BarChart h={220} data={data} dataKey="day" series={[{ name: 'newMembers', label: 'New members', color: 'indigo.6' }]} tickLine="none" gridAxis="y" />
        ) : (
          <ChartPlace />
        )}
      </ChartCard>
      <ChartCard title="Revenue per day" summary={`${formatINR(total('revenue'))} in membership fees`}>
        {drawable ? (
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
        ) : (
          <ChartPlace />
        )}
      </ChartCard>
      <ChartCard
        title="Payouts: success vs failure"
        summary={`${total('payoutsSuccess').toLocaleString('en-IN')} successful, ${total('payoutsFailure').toLocaleString('en-IN')} failed`}
      >
        {drawable ? (
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
        ) : (
          <ChartPlace />
        )}
      </ChartCard>
    </SimpleGrid>
  );
}
