import { useEffect, useState } from 'react';
import { Alert, Button, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAlertTriangle, IconSearch, IconUserPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { STAFF_SORTS, staffApi, type StaffMember, type StaffQuery } from '../../../contract/staff';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CsvButton } from '../../components/csv-button';
import { DataTable } from '../../components/data-table';
import { SuccessBanner, useSuccessBanner } from '../../components/success-banner';
import { useListState } from '../../components/use-url-state';
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

const STATUS_OPTIONS = [
  { value: '', label: 'All statuses' },
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
];

/** Issue 13: the accounts that sign in to the back-office, and the only place a role is assigned. */
export default function StaffPage() {
  const { user } = useAuth();
  const state = useListState(URL_FILTERS);
  const { page, setPage } = state;
  const q = state.filters.q;
  const status = (['active', 'inactive'].includes(state.filters.status) ? state.filters.status : '') as StaffFilters['status'];
  const sort = (SORTS.has(state.filters.sort) ? state.filters.sort : URL_FILTERS.sort) as NonNullable<StaffQuery['sort']>;
  const [search, setSearch] = useState(q);
  const [typed] = useDebouncedValue(search, 250);
  const { setFilters } = state;
  useEffect(() => {
    if (typed !== q) setFilters({ q: typed });
    // Only the debounced typing writes the address (`q` is left out on purpose: no echo of it).
  }, [typed]);
  const filters: StaffFilters = { q, status, sort };
  const list = useQuery(staffListQuery(filters, page));
  const [dialog, setDialog] = useState<Dialog>(null);
  const [success, showSuccess] = useSuccessBanner();
  const [actionError, setActionError] = useState<string | null>(null);
  const setActive = useSetStaffStatus();
  const signOut = useSignOutStaff();
  const resend = useResendInvite();

  const done = (message: string) => {
    setDialog(null);
    setActionError(null);
    showSuccess(message);
  };
  const refused = (fallback: string) => (err: unknown) => {
    setDialog(null);
    setActionError(errorMessage(err, fallback));
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
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={1} size="h2">
            Staff
          </Title>
          <Text c="dimmed">Accounts that sign in to the back-office: invite them, assign their roles, switch them off</Text>
        </div>
        <Button leftSection={<IconUserPlus size={16} aria-hidden />} onClick={() => setDialog({ kind: 'invite' })}>
          Invite staff
        </Button>
      </Group>

      <SuccessBanner message={success} />
      {list.isError && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
          <Group gap="sm">
            <Text size="sm">{`Failed to load data: ${list.error.message}`}</Text>
            <Button size="compact-xs" variant="light" color="red" onClick={() => list.refetch()}>
              Retry
            </Button>
          </Group>
        </Alert>
      )}
      {actionError && (
        <Alert color="red" variant="light" role="alert" withCloseButton onClose={() => setActionError(null)}>
          {actionError}
        </Alert>
      )}

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
            onChange={(v) => state.setFilters({ status: v ?? '' })}
            allowDeselect={false}
            w={160}
          />
        </Group>
        <Group gap="md">
          <CsvButton
            endpoint={staffApi.csv}
            input={{ query: { q: q || undefined, status: status || undefined, sort } }}
            filename="staff.csv"
            onError={setActionError}
          />
          <Text fw={500}>Total Staff: {formatCount(total)}</Text>
          <Text size="sm" c="dimmed" aria-live="polite">
            {list.isFetching ? 'Refreshing...' : null}
          </Text>
        </Group>
      </Group>

      {list.isPending && (
        <Group gap="xs" role="status">
          <Text size="sm" c="dimmed">
            Loading staff...
          </Text>
        </Group>
      )}
      <DataTable
        caption="Staff"
        columns={columns}
        rows={list.isError ? [] : list.data?.data}
        rowKey={(m) => m.userId}
        loading={list.isPending || list.isPlaceholderData}
        sort={{ value: sort, onChange: (value) => state.setFilters({ sort: value }) }}
        empty={
          filtered ? (
            <>
              <Text fw={500}>No staff found</Text>
              <Text size="sm" c="dimmed">
                Try adjusting your search filters
              </Text>
            </>
          ) : (
            <>
              <Text fw={500}>No staff yet</Text>
              <Button variant="light" onClick={() => setDialog({ kind: 'invite' })}>
                Invite your first colleague
              </Button>
            </>
          )
        }
        paging={list.data ? { page, limit: STAFF_PAGE_SIZE, total, onPage: setPage } : undefined}
      />

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
    </Stack>
  );
}
