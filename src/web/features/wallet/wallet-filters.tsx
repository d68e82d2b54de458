import { useState } from 'react';
import { Button, Select, TextInput } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { LEDGER_KIND_LABELS, LEDGER_KIND_NAMES } from '../../../contract/ledger-kinds';
import { DateRangeFilter } from '../../components/date-range-filter';
import { MemberPicker } from '../../components/member-picker';
import { parseAmountPaise } from '../../lib/amount';
import type { WalletView } from './wallet.api';

interface WalletFiltersProps {
  view: WalletView;
  onChange: (patch: Partial<WalletView>) => void;
  onClear: () => void;
}

/**
 * Issue 24: every kind the ledger has, in words. None picked is the spec's list: recharges and
 * withdrawals (the wallet transactions).
 */
export const TYPE_OPTIONS = [
  { value: '', label: 'Recharges and withdrawals' },
  ...LEDGER_KIND_NAMES.map((k) => ({ value: k, label: LEDGER_KIND_LABELS[k] })),
];
const INVALID = 'Enter an amount in rupees, e.g. 100 or 99.50';

/** What is wrong with the typed amounts, per field; nothing when both are empty or valid. */
function amountProblems(min: string, max: string) {
  const low = min.trim() ? parseAmountPaise(min) : undefined;
  const high = max.trim() ? parseAmountPaise(max) : undefined;
  return {
    min: low === null ? INVALID : undefined,
    max: high === null ? INVALID : low != null && high != null && high < low ? 'Max Amount must not be less than Min Amount' : undefined,
  };
}

/**
 * The wallet list's filters: member and type apply when picked; the dates and the amounts when
 * searched. The amounts are rupees exactly as typed (checked here, never rewritten; the server
 * reads them into paise); a wrong one says so under its field and nothing is sent.
 */
export function WalletFilters({ view, onChange, onClear }: WalletFiltersProps) {
  const [min, setMin] = useState(view.min);
  const [max, setMax] = useState(view.max);
  const [problems, setProblems] = useState<{ min?: string; max?: string }>({});

  return (
    <DateRangeFilter
      label="Filter wallet transactions"
      require="none"
      initial={{ from: view.from, to: view.to }}
      onSearch={(range) => {
        const found = amountProblems(min, max);
        setProblems(found);
        if (found.min || found.max) return;
        onChange({ from: range.from, to: range.to, min, max });
      }}
      actions={
        <Button variant="default" leftSection={<IconX size={16} aria-hidden />} onClick={onClear}>
          Clear Filters
        </Button>
      }
    >
      <MemberPicker label="User" placeholder="All Users" allLabel="All Users" value={view.user || null} onChange={(user) => onChange({ user: user ?? '' })} w={260} />
      <Select label="Type" data={TYPE_OPTIONS} value={view.type} onChange={(type) => onChange({ type: type ?? '' })} allowDeselect={false} w={230} />
      <AmountFilter label="Min Amount" value={min} onChange={setMin} error={problems.min} />
      <AmountFilter label="Max Amount" value={max} onChange={setMax} error={problems.max} />
    </DateRangeFilter>
  );
}

/** An amount bound of the filter: rupees exactly as typed. */
function AmountFilter({ label, value, onChange, error }: { label: string; value: string; onChange: (value: string) => void; error?: string }) {
  return (
    <TextInput
      label={label}
      inputMode="decimal"
      autoComplete="off"
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error}
      w={140}
    />
  );
}
