import { useState } from 'react';
import { Button, Select, TextInput } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { DateRangeFilter } from '../../components/date-range-filter';
import type { PayoutFilters as Filters } from './payouts.api';

interface PayoutFiltersProps {
  initial: Filters;
  onSearch: (filters: Omit<Filters, 'sort' | 'status'>) => void;
  /** The status applies at once (issue 24), as the table's order does. */
  status: Filters['status'];
  onStatus: (status: Filters['status']) => void;
  onClear: () => void;
}

const STATUS_OPTIONS = [
  { value: '', label: 'All Statuses' },
  { value: 'Success', label: 'Success' },
  { value: 'Failure', label: 'Failure' },
  { value: 'Reversed', label: 'Reversed' },
];

/**
 * Date range (at least one date, spec §5) and user name with Search; the status applies as soon as
 * it is picked; 'Clear Filters & Reload' (the page remounts the form with its defaults).
 */
export function PayoutFilters({ initial, onSearch, status, onStatus, onClear }: PayoutFiltersProps) {
  const [userName, setUserName] = useState(initial.userName);
  return (
    <DateRangeFilter
      label="Search payouts"
      require="one"
      initial={initial}
      onSearch={(range) => onSearch({ ...range, userName })}
      actions={
        <Button variant="default" leftSection={<IconRefresh size={16} aria-hidden />} onClick={onClear}>
          Clear Filters &amp; Reload
        </Button>
      }
    >
      <TextInput label="User Name" placeholder="Search by user name" value={userName} onChange={(e) => setUserName(e.currentTarget.value)} />
      <Select
        label="Status"
        data={STATUS_OPTIONS}
        value={status}
        onChange={(v) => onStatus((v ?? '') as Filters['status'])}
        allowDeselect={false}
      />
    </DateRangeFilter>
  );
}
