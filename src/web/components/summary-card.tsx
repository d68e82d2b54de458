import type { ReactNode } from 'react';
import { Card, Group, SimpleGrid, Skeleton, Text, ThemeIcon, type MantineSpacing, type SimpleGridProps } from '@mantine/core';
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

interface SummaryCardsProps {
  cols?: SimpleGridProps['cols'];
  /** The space between the cards; 'lg' by default. */
  spacing?: MantineSpacing;
  children: ReactNode;
}

/** A list's totals: its cards side by side (one a row on a phone). */
export function SummaryCards({ cols = { base: 1, sm: 3 }, spacing = 'lg', children }: SummaryCardsProps) {
  return (
    <SimpleGrid cols={cols} spacing={spacing}>
      {children}
    </SimpleGrid>
  );
}

/** A card of `TotalCards`, declared like a table's column: its value read from the loaded answer. */
export interface Total<T> {
  label: string;
  value: (data: T) => ReactNode;
  icon: Icon;
  color: string;
}

/** `SummaryCards` of `totals`, each read from `data`; a placeholder in each while `data` is not there yet. */
export function TotalCards<T>({ data, totals, ...grid }: Omit<SummaryCardsProps, 'children'> & { data: T | undefined; totals: Total<T>[] }) {
  return (
    <SummaryCards {...grid}>
      {totals.map((t) => (
        <SummaryCard key={t.label} label={t.label} value={data === undefined ? null : t.value(data)} icon={t.icon} color={t.color} />
      ))}
    </SummaryCards>
  );
}
