import type { ReactNode } from 'react';
import { Card, Group, SimpleGrid, Skeleton, Text, ThemeIcon, type SimpleGridProps } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';

interface SummaryCardProps {
  label: string;
  /** null while loading. */
  value: ReactNode | null;
  icon: Icon;
  color: string;
}

export function SummaryCard({ label, value, icon: IconComponent, color }: SummaryCardProps) {
  return (
    <Card padding="lg" component="section" aria-label={label}>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <div>
          <Text size="sm" c="dimmed" fw={600}>
            {label}
          </Text>
          {value === null ? (
            <Skeleton height={28} width={120} mt={6} radius="sm" aria-label={`Loading ${label}`} />
          ) : (
            <Text fz={24} fw={700} mt={4}>
              {value}
            </Text>
          )}
        </div>
        <ThemeIcon size={44} radius="md" variant="light" color={color} aria-hidden>
          <IconComponent size={24} stroke={1.6} />
        </ThemeIcon>
      </Group>
    </Card>
  );
}

/** A list's totals: its cards side by side (one a row on a phone). */
export function SummaryCards({ cols = { base: 1, sm: 3 }, children }: { cols?: SimpleGridProps['cols']; children: ReactNode }) {
  return (
    <SimpleGrid cols={cols} spacing="lg">
      {children}
    </SimpleGrid>
  );
}
