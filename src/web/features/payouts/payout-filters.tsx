import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Paper, Select, TextInput } from '@mantine/core';
import { IconRefresh, IconSearch } from '@tabler/icons-react';
import type { PayoutFilters as Filters } from './payouts.api';

interface PayoutFiltersProps {
  initial: Filters;
  onSearch: (filters: Filters) => void;
  onClear: () => void;
}

const STATUS_OPTIONS = [
  { value: '', label: 'All Statuses' },
  { value: 'Success', label: 'Success' },
  { value: 'Failure', label: 'Failure' },
];

/** Date range (at least one date, spec §5), user name, status, and 'Clear Filters & Reload' (the page remounts the form with its defaults). */
export function PayoutFilters({ initial, onSearch, onClear }: PayoutFiltersProps) {
  const [from, setFrom] = useState(initial.from);
  const [to, setTo] = useState(initial.to);
  const [userName, setUserName] = useState(initial.userName);
  const [status, setStatus] = useState<Filters['status']>(initial.status);
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!from && !to) {
      setError('Please select at least one date to search');
      return;
    }
    if (from && to && from > to) {
      setError('The From date must not be after the To date');
      return;
    }
    setError(null);
    onSearch({ from, to, userName, status });
  };

  return (
    <Paper withBorder radius="md" p="md">
      <form onSubmit={submit} noValidate aria-label="Search payouts">
        <Group align="flex-end" gap="md" wrap="wrap">
          <TextInput type="date" label="From" value={from} onChange={(e) => setFrom(e.currentTarget.value)} />
          <TextInput type="date" label="To" value={to} onChange={(e) => setTo(e.currentTarget.value)} />
          <TextInput
            label="User Name"
            placeholder="Search by user name"
            value={userName}
            onChange={(e) => setUserName(e.currentTarget.value)}
          />
          <Select
            label="Status"
            data={STATUS_OPTIONS}
            value={status}
            onChange={(v) => setStatus((v ?? '') as Filters['status'])}
            allowDeselect={false}
          />
          <Button type="submit" leftSection={<IconSearch size={16} aria-hidden />}>
            Search
          </Button>
          <Button variant="default" leftSection={<IconRefresh size={16} aria-hidden />} onClick={onClear}>
            Clear Filters &amp; Reload
          </Button>
        </Group>
        {error && (
          <Alert color="orange" variant="light" mt="sm" role="alert">
            {error}
          </Alert>
        )}
      </form>
    </Paper>
  );
}
