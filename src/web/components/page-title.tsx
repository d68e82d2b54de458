import type { ReactNode } from 'react';
import { Text, Title } from '@mantine/core';

/** A screen's heading: its title and, under it, a dimmed line saying what the screen is for. */
export function PageTitle({ title, subtitle }: { title: string; subtitle?: ReactNode }) {
  return (
    <div>
      <Title order={1} size="h2">
        {title}
      </Title>
      {subtitle && <Text c="dimmed">{subtitle}</Text>}
    </div>
  );
}
