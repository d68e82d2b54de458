import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Stack, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { Member } from '../../../contract/membership';
import type { Column } from '../../components/data-table';
import { formatDateTime } from '../../lib/format';
import { membersQuery, type DateRange } from './membership.api';
import { MembersTable } from './members-table';

/** Membership version B (/membership): members by the date they took membership. */
export default function MembershipPage() {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [range, setRange] = useState<DateRange | null>(null);
  const [page, setPage] = useState(1);
  const [formError, setFormError] = useState<string | null>(null);
  const members = useQuery(membersQuery(range, page));

  function filter(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!from || !to) {
      setFormError('Please select both from and to dates');
      return;
    }
    if (from > to) {
      setFormError('The From date must not be after the To date');
      return;
    }
    setFormError(null);
    setRange({ from, to });
    setPage(1);
  }

  function clear() {
    setFrom('');
    setTo('');
    setFormError(null);
    setRange(null);
    setPage(1);
  }

  const columns: Column<Member>[] = [
    { header: 'User ID', cell: (m) => m.userId },
    { header: 'Name', cell: (m) => m.fullName },
    { header: 'Date Time', cell: (m) => formatDateTime(m.dateTime) },
  ];

  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        Membership
      </Title>
      <form onSubmit={filter} noValidate>
        <Group align="flex-end">
          <TextInput type="date" label="From" value={from} onChange={(e) => setFrom(e.currentTarget.value)} />
          <TextInput type="date" label="To" value={to} onChange={(e) => setTo(e.currentTarget.value)} />
          <Button type="submit">Filter</Button>
          <Button variant="default" onClick={clear}>
            Clear
          </Button>
        </Group>
      </form>
      {formError && (
        <Alert color="orange" variant="light" role="alert">
          {formError}
        </Alert>
      )}
      <MembersTable members={members} columns={columns} page={page} onPage={setPage} loadError="Failed to fetch members. Please try again later." />
    </Stack>
  );
}
