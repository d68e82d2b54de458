import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconBuildingBank, IconSearch } from '@tabler/icons-react';
import type { User } from '../../../contract/users';
import type { Column } from '../../components/data-table';
import { csvFile, ListPage } from '../../components/list-page';
import { getToken } from '../../lib/session';
import { banksApi } from '../../../contract/banks';
import { BankDetailsModal } from './bank-details-modal';
import { isInvalidAnswer } from '../../lib/api-client';
import { bankMembersQuery, DEFAULT_MEMBER_SORT, MEMBERS_PAGE_SIZE, memberSort, memberSortKey } from './banks.api';
import { useResource } from '../../components/use-resource';
import { useSearchBox } from '../../components/use-search-box';
import { ErrorAlert } from '../../components/error-alert';
import { RowAction, RowActions } from '../../components/row-actions';
import { ActiveBadge } from '../../components/status-badge';
import { TruncatedText } from '../../components/truncated-text';

export default function BankPage() {
  const [token, setToken] = useState(getToken);
  return token ? (
    <BankMembers />
  ) : (
    <Stack gap="lg">
      <Title order={1} size="h2">
        Bank Details
      </Title>
      <SetAuthToken onSaved={() => setToken(getToken())} />
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

/** The list's search and order, kept in the address (a reload or a shared link keeps them). */
const URL_FILTERS = { q: '', sort: DEFAULT_MEMBER_SORT as string };
/** The address's order, an unknown one read as the default. */
const read = (f: typeof URL_FILTERS): typeof URL_FILTERS => ({ ...f, sort: memberSort(f.sort) });

function BankMembers() {
  const members = useResource({
    filters: URL_FILTERS,
    read,
    query: (f, page) => bankMembersQuery(f.q, page, f.sort),
    rowsOf: (data) => data.users,
  });
  const { filters, setFilters, page, list } = members;
  // The typed search reaches the address (and the server) once typing pauses.
  const [search, setSearch] = useSearchBox(filters.q, (q) => setFilters({ q }), 300, (typed) => typed.trim());
  const [viewing, setViewing] = useState<User | null>(null);

  const columns: Column<User>[] = [
    { header: 'S.No', cell: (_u, i) => (page - 1) * MEMBERS_PAGE_SIZE + i + 1, width: 70 },
    { header: 'User ID', cell: (u) => u.userId, sort: memberSortKey('userId'), width: 110 },
    { header: 'Name', cell: (u) => <TruncatedText maxWidth={260}>{u.fullName}</TruncatedText>, sort: memberSortKey('fullName') },
    { header: 'Email', cell: (u) => <TruncatedText maxWidth={260}>{u.email}</TruncatedText>, sort: memberSortKey('email') },
    { header: 'Phone', cell: (u) => u.phone, sort: memberSortKey('phone') },
    { header: 'Status', cell: (u) => <ActiveBadge active={u.status} />, sort: memberSortKey('status') },
    {
      header: 'Actions',
      cell: (u) => (
        <RowActions>
          <RowAction label="View Bank Details" name={`View Bank Details of ${u.fullName}`} icon={<IconBuildingBank size={18} aria-hidden />} onClick={() => setViewing(u)} />
        </RowActions>
      ),
    },
  ];

  return (
    <ListPage
      title="Bank Details"
      resource={members}
      // Every live member's bank accounts (account numbers masked), not just this page.
      filterCsv={csvFile(banksApi.csv, undefined, 'bank-accounts.csv')}
      filters={
        <TextInput
          aria-label="Find a member"
          placeholder="Search by name, email, phone or user ID"
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          maw={380}
          style={{ flexGrow: 1 }}
        />
      }
      toolbar={
        list.isError && <ErrorAlert error={isInvalidAnswer(list.error) ? 'Unexpected API response format' : 'Failed to fetch users. Please try again later.'} />
      }
      caption="Members"
      columns={columns}
      rowKey={(u) => u._id}
      empty={<Text fw={500}>No users found</Text>}
      paging={list.data ? { limit: MEMBERS_PAGE_SIZE, total: list.data.total } : undefined}
    >
      <BankDetailsModal member={viewing} onClose={() => setViewing(null)} />
    </ListPage>
  );
}
