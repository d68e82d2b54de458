import { useState } from 'react';
import { Button, Group, Select, Text, TextInput } from '@mantine/core';
import { IconSearch, IconUserPlus } from '@tabler/icons-react';
import { STAFF_SORTS, staffApi, type StaffMember } from '../../../contract/staff';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CsvButton } from '../../components/csv-button';
import { ErrorAlert } from '../../components/error-alert';
import { ListEmpty, ListPage } from '../../components/list-page';
import { useResource } from '../../components/use-resource';
import { useSearchBox } from '../../components/use-search-box';
import { errorMessage } from '../../lib/api-client';
import { formatCount } from '../../lib/format';
import { useAuth } from '../auth/auth-context';
import { ChangeRoleForm } from './change-role-form';
import { EditStaffForm } from './edit-staff-form';
import { InviteStaffForm } from './invite-staff-form';
import { staffColumns } from './staff-columns';
import {
  STAFF_PAGE_SIZE, staffListQuery, useResendInvite, useSetStaffStatus, useSignOutStaff, type StaffFilters,
} from './staff.api';

type Dialog =
  | { kind: 'invite' }
  | { kind: 'edit' | 'role' | 'status' | 'sign-out'; member: StaffMember }
  | null;

/** Search, status and order kept in the address (`?q=asha&sort=fullName`). */
const URL_FILTERS = { q: '', status: '', sort: '-userId' };
const SORTS = new Set<string>(STAFF_SORTS.flatMap((k) => [k, `-${k}`]));
/** The address's status and order, an unknown one read as the default. */
const read = (f: typeof URL_FILTERS): typeof URL_FILTERS => ({
  q: f.q,
  status: ['active', 'inactive'].includes(f.status) ? f.status : '',
  sort: SORTS.has(f.sort) ? f.sort : URL_FILTERS.sort,
});

const STATUS_OPTIONS = [
  { value: '', label: 'All statuses' },
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
];

/** Issue 13: the accounts that sign in to the back-office, and the only place a role is assigned. */
export default function StaffPage() {
  const { user } = useAuth();
  const staff = useResource({
    filters: URL_FILTERS,
    read,
    query: (f, page) => staffListQuery(f as StaffFilters, page),
    rowsOf: (data) => data.data,
  });
  const { page, list } = staff;
  const { q, status } = staff.filters as StaffFilters;
  // Only the debounced typing writes the address.
  const [search, setSearch] = useSearchBox(q, (typed) => staff.setFilters({ q: typed }), 250);
  const [dialog, setDialog] = useState<Dialog>(null);
  const setActive = useSetStaffStatus();
  const signOut = useSignOutStaff();
  const resend = useResendInvite();

  const done = (message: string) => {
    setDialog(null);
    staff.done(message);
  };
  const refused = (fallback: string) => (err: unknown) => {
    setDialog(null);
    staff.fail(errorMessage(err, fallback));
  };

  const filtered = q.trim() !== '' || status !== '';
  const total = list.data?.total ?? 0;
  const columns = staffColumns((page - 1) * STAFF_PAGE_SIZE, {
    selfId: user?.userId ?? null,
    onRole: (member) => setDialog({ kind: 'role', member }),
    onEdit: (member) => setDialog({ kind: 'edit', member }),
    onStatus: (member) => setDialog({ kind: 'status', member }),
    onSignOut: (member) => setDialog({ kind: 'sign-out', member }),
    onResend: (member) =>
      resend.mutate(member.userId, { onSuccess: (res) => done(res.message), onError: refused('Failed to resend the invitation') }),
  });

  const confirmStatus = () => {
    if (dialog?.kind !== 'status') return;
    const { member } = dialog;
    setActive.mutate(
      { userId: member.userId, status: !member.status },
      { onSuccess: (res) => done(res.message), onError: refused('Failed to change the status') },
    );
  };
  const confirmSignOut = () => {
    if (dialog?.kind !== 'sign-out') return;
    signOut.mutate(dialog.member.userId, { onSuccess: (res) => done(res.message), onError: refused('Failed to sign out') });
  };

  return (
    <ListPage
      title="Staff"
      subtitle="Accounts that sign in to the back-office: invite them, assign their roles, switch them off"
      actions={
        <Button leftSection={<IconUserPlus size={16} aria-hidden />} onClick={() => setDialog({ kind: 'invite' })}>
          Invite staff
        </Button>
      }
      resource={staff}
      alerts={list.isError && <ErrorAlert error={`Failed to load data: ${list.error.message}`} withIcon onRetry={() => list.refetch()} />}
      filters={
        <Group justify="space-between" align="flex-end" wrap="wrap">
          <Group gap="md" align="flex-end">
            <TextInput
              label="Search"
              placeholder="Name, email or user id"
              leftSection={<IconSearch size={16} aria-hidden />}
              value={search}
              onChange={(e) => setSearch(e.currentTarget.value)}
              w={{ base: '100%', sm: 280 }}
            />
            <Select
              label="Status"
              data={STATUS_OPTIONS}
              value={status}
              onChange={(v) => staff.setFilters({ status: v ?? '' })}
              allowDeselect={false}
              w={160}
            />
          </Group>
          <Group gap="md">
            <CsvButton
              endpoint={staffApi.csv}
              input={{ query: { q: q || undefined, status: status || undefined, sort: staff.filters.sort as StaffFilters['sort'] } }}
              filename="staff.csv"
              onError={staff.fail}
            />
            <Text fw={500}>Total Staff: {formatCount(total)}</Text>
            <Text size="sm" c="dimmed" aria-live="polite">
              {list.isFetching ? 'Refreshing...' : null}
            </Text>
          </Group>
        </Group>
      }
      loadingText="Loading staff..."
      caption="Staff"
      columns={columns}
      rowKey={(m) => m.userId}
      empty={
        <ListEmpty
          filtered={filtered}
          found="No staff found"
          none="No staff yet"
          first={{ label: 'Invite your first colleague', onClick: () => setDialog({ kind: 'invite' }) }}
        />
      }
      paging={list.data ? { limit: STAFF_PAGE_SIZE, total } : undefined}
    >
      {dialog?.kind === 'invite' && <InviteStaffForm onClose={() => setDialog(null)} onInvited={done} />}
      {dialog?.kind === 'edit' && (
        <EditStaffForm member={dialog.member} self={dialog.member.userId === user?.userId} onClose={() => setDialog(null)} onSaved={done} />
      )}
      {dialog?.kind === 'role' && <ChangeRoleForm member={dialog.member} onClose={() => setDialog(null)} onSaved={done} />}
      <ConfirmDialog
        opened={dialog?.kind === 'status'}
        title={dialog?.kind === 'status' && !dialog.member.status ? 'Reactivate staff member' : 'Deactivate staff member'}
        message={
          dialog?.kind === 'status'
            ? dialog.member.status
              ? `Deactivate ${dialog.member.fullName}? They are signed out everywhere and cannot sign in until reactivated.`
              : `Reactivate ${dialog.member.fullName}? They can sign in again with their password.`
            : ''
        }
        confirmLabel={dialog?.kind === 'status' && !dialog.member.status ? 'Reactivate' : 'Deactivate'}
        busy={setActive.isPending}
        onConfirm={confirmStatus}
        onCancel={() => setDialog(null)}
      />
      <ConfirmDialog
        opened={dialog?.kind === 'sign-out'}
        title="Sign out everywhere"
        message={dialog?.kind === 'sign-out' ? `End every session of ${dialog.member.fullName}? They will have to sign in again on each device.` : ''}
        confirmLabel="Sign out everywhere"
        busy={signOut.isPending}
        onConfirm={confirmSignOut}
        onCancel={() => setDialog(null)}
      />
    </ListPage>
  );
}
