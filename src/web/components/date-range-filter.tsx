import { useState, type FormEvent, type ReactNode } from 'react';
import { Button, Group, Paper, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { ErrorAlert } from './error-alert';

export interface DateRange {
  /** yyyy-mm-dd, or '' for none. */
  from: string;
  to: string;
}

interface DateRangeFilterProps {
  /** Names the search form for screen readers. */
  label: string;
  initial: DateRange;
  /**
   * 'both': From and To are required (spec §5: 'Please select both from and to dates'; Search is
   * disabled and the message shows until both are set). 'one': at least one date is
   * ('Please select at least one date to search'). 'none': both may be empty (a list whose other
   * filters stand alone).
   */
  require: 'both' | 'one' | 'none';
  onSearch: (range: DateRange) => void;
  /** The other filters, between the dates and the Search button. */
  children?: ReactNode;
  /** Buttons after Search (e.g. 'Clear Filters & Reload'). */
  actions?: ReactNode;
}

const BOTH = 'Please select both from and to dates';
const ONE = 'Please select at least one date to search';

/** THE From/To date filter of a report or list: checks the range, then hands it to onSearch. */
export function DateRangeFilter({ label, initial, require, onSearch, children, actions }: DateRangeFilterProps) {
  const [from, setFrom] = useState(initial.from);
  const [to, setTo] = useState(initial.to);
  const [error, setError] = useState<string | null>(null);
  const missing = require === 'both' ? !(from && to) : require === 'one' && !(from || to);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (missing) return setError(require === 'both' ? BOTH : ONE);
    if (from && to && from > to) return setError('The From date must not be after the To date');
    setError(null);
    onSearch({ from, to });
  };

  return (
    <Paper withBorder radius="md" p="md">
      <form onSubmit={submit} noValidate aria-label={label}>
        <Group align="flex-end" gap="md" wrap="wrap">
          <TextInput type="date" label="From" value={from} onChange={(e) => setFrom(e.currentTarget.value)} />
          <TextInput type="date" label="To" value={to} onChange={(e) => setTo(e.currentTarget.value)} />
          {children}
          <Button type="submit" leftSection={<IconSearch size={16} aria-hidden />} disabled={require === 'both' && missing}>
            Search
          </Button>
          {actions}
        </Group>
        <ErrorAlert error={error ?? (require === 'both' && missing ? BOTH : null)} color="orange" mt="sm" />
      </form>
    </Paper>
  );
}
