import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { User } from '../../../contract/users';
import { DataTable, type Column } from '../../components/data-table';
import { getToken } from '../../lib/session';
import { BankDetailsModal } from './bank-details-modal';
import { isInvalidAnswer } from '../../lib/api-client';
import { bankMembersQuery, MEMBERS_PAGE_SIZE } from './banks.api';
import { ErrorAlert } from '../../components/error-alert';

export default function BankPage() {
  const [token, setToken] = useState(getToken);
  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        Bank Details
      </Title>
      {token ? <BankMembers /> : <SetAuthToken onSaved={() => setToken(getToken())} />}
    </Stack>
  );
}

/** Spec §2/§8: without a stored token the screen says so and lets one be typed in and saved. */
function SetAuthToken({ onSaved }: { onSaved: () => void }) {
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState('');
  function save(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!value.trim()) return;
    localStorage.setItem('authToken', value.trim());
    onSaved();
  }
  return (
    <Alert color="orange" variant="light" role="alert">
      <Stack gap="sm" align="flex-start">
        <Text size="sm">Authentication required. Please log in.</Text>
        {open ? (
          <form onSubmit={save}>
            <Group align="flex-end">
              <PasswordInput label="Auth token" value={value} onChange={(e) => setValue(e.currentTarget.value)} w={320} data-autofocus />
              <Button type="submit">Save Token</Button>
            </Group>
          </form>
        ) : (
          <Button variant="light" color="orange" onClick={() => setOpen(true)}>
            Set Auth Token
          </Button>
        )}
      </Stack>
    </Alert>
  );
}

function BankMembers() {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const members = useQuery(bankMembersQuery(debounced, page));
  const [viewing, setViewing] = useState<User | null>(null);

  const columns: Column<User>[] = [
    { header: 'S.No', cell: (_u, i) => (page - 1) * MEMBERS_PAGE_SIZE + i + 1, width: 70 },
    { header: 'Name', cell: (u) => u.fullName },
    { header: 'Email', cell: (u) => u.email },
    { header: 'Phone', cell: (u) => u.phone },
    {
      header: 'Actions',
      cell: (u) => (
        <Button size="compact-sm" variant="light" onClick={() => setViewing(u)} aria-label={`View Bank Details of ${u.fullName}`}>
          View Bank Details
        </Button>
      ),
    },
  ];

  return (
    <>
      <TextInput
        aria-label="Find a member"
        placeholder="Search by name, email, phone or user ID"
        leftSection={<IconSearch size={16} aria-hidden />}
        value={search}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          setPage(1);
        }}
        maw={380}
      />
      {members.isError && (
        <ErrorAlert error={isInvalidAnswer(members.error) ? 'Unexpected API response format' : 'Failed to fetch users. Please try again later.'} />
      )}
      <DataTable
        caption="Members"
        columns={columns}
        rows={members.data?.users ?? (members.isError ? [] : undefined)}
        rowKey={(u) => u._id}
        loading={members.isPending}
        empty={<Text fw={500}>No users found</Text>}
        paging={members.data ? { page, limit: MEMBERS_PAGE_SIZE, total: members.data.total, onPage: setPage } : undefined}
      />
      <BankDetailsModal member={viewing} onClose={() => setViewing(null)} />
    </>
  );
}
