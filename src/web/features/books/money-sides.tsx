import { Text } from '@mantine/core';
import { formatINR } from '../../lib/format';

export interface Sided {
  debit: number | null;
  credit: number | null;
}

/** A balance in words: "₹1,200.00 Dr", "₹50.00 Cr", or "₹0.00". */
export function sidedText(s: Sided): string {
  if (s.debit !== null) return `${formatINR(s.debit)} Dr`;
  if (s.credit !== null) return `${formatINR(s.credit)} Cr`;
  return formatINR(0);
}

/** A figure in a Debit or Credit column: the amount, or nothing. */
export function Amount({ value, strong = false }: { value: number | null; strong?: boolean }) {
  return value === null ? null : (
    <Text size="sm" ta="right" ff="monospace" fw={strong ? 700 : undefined}>
      {formatINR(value)}
    </Text>
  );
}
