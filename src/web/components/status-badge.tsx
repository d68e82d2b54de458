import type { ReactNode } from 'react';
import { Badge } from '@mantine/core';
import type { MembershipDetail } from '../../contract/income';

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

/** A membership's status as the member page and the Membership screens show it. */
export const MEMBERSHIP_STATUS: Record<MembershipDetail['status'], { tone: Tone; label: string }> = {
  active: { tone: 'positive', label: 'Active' },
  completed: { tone: 'neutral', label: 'Completed' },
  legacy: { tone: 'warning', label: 'Legacy' },
};
