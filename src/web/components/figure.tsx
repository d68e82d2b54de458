import type { ReactNode } from 'react';
import { Text } from '@mantine/core';

interface FigureProps {
  /** The small dimmed label above the value; it also names the figure for screen readers. */
  label: string;
  /** 'lg': a headline figure (large, bold); 'sm': one detail among many. */
  size?: 'sm' | 'lg';
  children: ReactNode;
}

/** A labelled value: a balance, a total, a detail of a record. */
export function Figure({ label, size = 'lg', children }: FigureProps) {
  return (
    <div role="group" aria-label={label}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size={size} fw={size === 'lg' ? 700 : 500} component="div">
        {children}
      </Text>
    </div>
  );
}
