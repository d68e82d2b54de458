import type { ReactNode } from 'react';
import { Badge } from '@mantine/core';

const TONES = { positive: 'teal', negative: 'red', neutral: 'gray', warning: 'orange', info: 'indigo' } as const;
export type Tone = keyof typeof TONES;

/**
 * THE status badge of every table and card (docs/structure.md, "Visual language"): light,
 * UPPERCASE, coloured by what the status means, never cut short.
 */
export function StatusBadge({ tone, children }: { tone: Tone; children: ReactNode }) {
  return (
    <Badge variant="light" color={TONES[tone]}>
      {children}
    </Badge>
  );
}

/** Active/Inactive (spec §3: status true = Active). */
export function ActiveBadge({ active }: { active: boolean }) {
  return <StatusBadge tone={active ? 'positive' : 'neutral'}>{active ? 'Active' : 'Inactive'}</StatusBadge>;
}
