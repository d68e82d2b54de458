import { useState, type FormEvent, type ReactNode } from 'react';
import { Alert, Button, Group, Paper, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { ReportSearch } from './reports.api';

interface ReportFiltersProps {
  initial: ReportSearch;
  onSearch: (search: ReportSearch) => void;
  /** Extra controls before the Search button (the Reward Type select). */
  children?: ReactNode;
}

/** From/To dates (both required, spec §5), a user-name search and the Search button. */
export function ReportFilters({ initial, onSearch, children }: ReportFiltersProps) {
  const [from, setFrom] = useState(initial.from);
  const [to, setTo] = useState(initial.to);
  const [userName, setUserName] = useState(initial.userName);
  const [error, setError] = useState<string | null>(null);
  const bothDates = Boolean(from && to);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!bothDates) {
      setError('Please select both from and to dates');
      return;
    }
    if (from > to) {
      setError('The From date must not be after the To date');
      return;
    }
    setError(null);
    onSearch({ from, to, userName });
  };

  return (
    <Paper withBorder radius="md" p="md">
      <form onSubmit={submit} noValidate aria-label="Search">
        <Group align="flex-end" gap="md" wrap="wrap">
          <TextInput type="date" label="From" value={from} onChange={(e) => setFrom(e.currentTarget.value)} />
          <TextInput type="date" label="To" value={to} onChange={(e) => setTo(e.currentTarget.value)} />
          <TextInput
            label="User Name"
            placeholder="Search by user name"
            value={userName}
            onChange={(e) => setUserName(e.currentTarget.value)}
          />
          {children}
          <Button type="submit" leftSection={<IconSearch size={16} aria-hidden />} disabled={!bothDates}>
            Search
          </Button>
        </Group>
        {(error || !bothDates) && (
          <Alert color="orange" variant="light" mt="sm" role="alert">
            {error ?? 'Please select both from and to dates'}
          </Alert>
        )}
      </form>
    </Paper>
  );
}
