import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, TextInput } from '@mantine/core';
import type { Member } from '../../../contract/membership';
import type { Column } from '../../components/data-table';
import { TruncatedText } from '../../components/truncated-text';
import { useResource } from '../../components/use-resource';
import { formatDateTime, formatINR } from '../../lib/format';
import { membersQuery, type MembershipSort } from './membership.api';
import { engineColumns, MembersScreen, readMembers } from './members-table';

/** The applied range (both dates, or neither) and the order, kept in the address. */
const URL_FILTERS: { from: string; to: string; sort: MembershipSort } = { from: '', to: '', sort: '-dateTime' };

const rangeOf = (f: typeof URL_FILTERS) => (f.from && f.to ? { from: f.from, to: f.to } : null);

/** Membership version B (/membership): members by the date they took membership. */
export default function MembershipPage() {
  const members = useResource({ filters: URL_FILTERS, read: readMembers, query: (f, page) => membersQuery(rangeOf(f), page, f.sort), rowsOf: (d) => d.data });
  const { filters, setFilters } = members;
  const [from, setFrom] = useState(filters.from);
  const [to, setTo] = useState(filters.to);
  const [formError, setFormError] = useState<string | null>(null);

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
    setFilters({ from, to });
  }

  function clear() {
    setFrom('');
    setTo('');
    setFormError(null);
    setFilters({ from: '', to: '' });
  }

  const columns: Column<Member>[] = [
    { header: 'User ID', cell: (m) => m.userId, sort: 'userId' },
    { header: 'Name', cell: (m) => <TruncatedText maxWidth={320}>{m.fullName}</TruncatedText>, sort: 'name' },
    { header: 'Date Time', cell: (m) => (m.dateTime ? formatDateTime(m.dateTime) : '—'), sort: 'dateTime' },
    ...engineColumns,
    { header: 'Current Amount', cell: (m) => formatINR(m.currentAmount), sort: 'currentAmount' },
  ];

  return (
    <MembersScreen
      members={members}
      range={rangeOf(filters)}
      sort={filters.sort}
      columns={columns}
      loadError="Failed to fetch members. Please try again later."
      filters={
        <>
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
        </>
      }
    />
  );
}
