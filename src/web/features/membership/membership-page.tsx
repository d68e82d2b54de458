import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Stack, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { membershipApi, type Member } from '../../../contract/membership';
import { CsvButton } from '../../components/csv-button';
import { ErrorAlert } from '../../components/error-alert';
import type { Column } from '../../components/data-table';
import { TruncatedText } from '../../components/truncated-text';
import { useListState } from '../../components/use-url-state';
import { formatDateTime, formatINR } from '../../lib/format';
import { knownMembershipSort, membersCsvInput, membersQuery, type MembershipSort } from './membership.api';
import { engineColumns, MembersTable } from './members-table';
import { ApprovalNotice } from '../../components/approval-notice';
import { SuccessBanner, useSuccessBanner } from '../../components/success-banner';
import { ActivateMembershipButton } from '../income/activation.api';

/** The applied range (both dates, or neither) and the order, kept in the address. */
const URL_FILTERS: { from: string; to: string; sort: MembershipSort } = { from: '', to: '', sort: '-dateTime' };

/** Membership version B (/membership): members by the date they took membership. */
export default function MembershipPage() {
  const { filters, setFilters, page, setPage } = useListState(URL_FILTERS);
  const range = filters.from && filters.to ? { from: filters.from, to: filters.to } : null;
  const sort = knownMembershipSort(filters.sort);
  const [from, setFrom] = useState(filters.from);
  const [to, setTo] = useState(filters.to);
  const [formError, setFormError] = useState<string | null>(null);
  const members = useQuery(membersQuery(range, page, sort));
  const [success, showSuccess] = useSuccessBanner();
  const [awaitingApproval, setAwaitingApproval] = useState<string | null>(null);
  const [downloadError, setDownloadError] = useState<string | null>(null);

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
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1} size="h2">
          Membership
        </Title>
        <Group gap="sm">
          <CsvButton endpoint={membershipApi.listCsv} input={membersCsvInput(range, sort)} filename="memberships.csv" onError={setDownloadError} />
          <ActivateMembershipButton
            onDone={({ message, awaitingApproval: pending }) => {
              setAwaitingApproval(pending ? message : null);
              if (!pending) showSuccess(message);
            }}
          />
        </Group>
      </Group>
      <SuccessBanner message={success} />
      <ErrorAlert error={downloadError} />
      <ApprovalNotice message={awaitingApproval} onClose={() => setAwaitingApproval(null)} />
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
      <MembersTable
        members={members}
        columns={columns}
        page={page}
        onPage={setPage}
        sort={{ value: sort, onChange: (value) => setFilters({ sort: value as MembershipSort }) }}
        loadError="Failed to fetch members. Please try again later."
      />
    </Stack>
  );
}
