import { useState } from 'react';
import { Alert, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { User } from '../../../contract/users';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable } from '../../components/data-table';
import { SuccessBanner, useSuccessBanner } from '../../components/success-banner';
import { errorMessage } from '../../lib/api-client';
import { formatCount } from '../../lib/format';
import { DownlineModal, type MemberRef } from './downline-modal';
import { NetworkModal } from './network-modal';
import { UserFiltersBar } from './user-filters';
import { UserFormModal } from './user-form';
import { userColumns } from './users-columns';
import { UsersErrorBoundary } from './users-error-boundary';
import { SAMPLE_USERS } from './users-fallback';
import {
  hasFilters, InvalidUsersFormat, NO_FILTERS, useDeleteUser, usersListQuery, USERS_PAGE_SIZE, type UserFilters,
} from './users.api';

export default function UsersPage() {
  return (
    <UsersErrorBoundary>
      <UserManagement />
    </UsersErrorBoundary>
  );
}

function UserManagement() {
  const [filters, setFilters] = useState<UserFilters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const list = useQuery(usersListQuery(filters, page));
  const [success, showSuccess] = useSuccessBanner();
  const [form, setForm] = useState<{ user: User | null } | null>(null);
  const [toDelete, setToDelete] = useState<User | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [downlineOf, setDownlineOf] = useState<MemberRef | null>(null);
  const [networkOf, setNetworkOf] = useState<MemberRef | null>(null);
  const remove = useDeleteUser();
  // Spec §4: a user created while a filter is active is shown first, even if the filter hides them.
  const [created, setCreated] = useState<User | null>(null);

  const failed = list.isError && !list.data;
  const loaded = list.data?.users;
  const pinned = created && page === 1 && loaded && !loaded.some((u) => u.userId === created.userId) ? [created] : [];
  const rows = loaded ? [...pinned, ...loaded] : failed ? SAMPLE_USERS : undefined;
  const total = list.data?.total ?? (failed ? SAMPLE_USERS.length : 0);
  const filtered = hasFilters(filters);

  function changeFilters(next: UserFilters) {
    setFilters(next);
    setPage(1);
    setCreated(null);
  }

  async function confirmDelete() {
    if (!toDelete) return;
    setDeleteError(null);
    try {
      await remove.mutateAsync(toDelete.userId);
      if (created?.userId === toDelete.userId) setCreated(null);
      setToDelete(null);
      showSuccess('User deleted successfully');
    } catch (err) {
      setToDelete(null);
      setDeleteError(errorMessage(err, 'Failed to delete user'));
    }
  }

  const columns = userColumns((page - 1) * USERS_PAGE_SIZE, {
    readOnly: failed,
    onDownline: (u) => setDownlineOf(u),
    onNetwork: (u) => setNetworkOf(u),
    onEdit: (u) => setForm({ user: u }),
    onDelete: (u) => setToDelete(u),
  });

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={1} size="h2">
            User Management
          </Title>
          <Text c="dimmed">Manage your system users and their permissions</Text>
        </div>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setForm({ user: null })} disabled={failed}>
          Add User
        </Button>
      </Group>

      <SuccessBanner message={success} />
      {deleteError && (
        <Alert color="red" variant="light" role="alert" withCloseButton onClose={() => setDeleteError(null)}>
          {deleteError}
        </Alert>
      )}
      {failed && (
        <Alert color="orange" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
          <Group gap="sm">
            <Text size="sm">
              {list.error instanceof InvalidUsersFormat
                ? 'Invalid data format from API. Using mock data instead.'
                : 'Failed to load users. Using mock data instead.'}
            </Text>
            <Badge color="orange">Sample data</Badge>
            <Button size="compact-xs" variant="light" color="orange" onClick={() => list.refetch()}>
              Retry
            </Button>
          </Group>
        </Alert>
      )}

      <Group justify="space-between" align="flex-end" wrap="wrap">
        <UserFiltersBar filters={filters} onChange={changeFilters} />
        <Group gap="md">
          <Text fw={500}>Total Users: {formatCount(total)}</Text>
          <Text size="sm" c="dimmed" aria-live="polite">
            {list.isFetching ? 'Refreshing...' : list.data ? 'Updated just now' : null}
          </Text>
        </Group>
      </Group>

      <DataTable
        caption="Users"
        columns={columns}
        rows={rows}
        rowKey={(u) => u._id}
        loading={list.isPending}
        empty={
          filtered ? (
            <>
              <Text fw={500}>No users found</Text>
              <Text size="sm" c="dimmed">
                Try adjusting your search filters
              </Text>
            </>
          ) : (
            <>
              <Text fw={500}>No users available</Text>
              <Button variant="light" onClick={() => setForm({ user: null })}>
                Add Your First User
              </Button>
            </>
          )
        }
        paging={list.data ? { page, limit: USERS_PAGE_SIZE, total, onPage: setPage } : undefined}
      />

      <UserFormModal
        opened={form !== null}
        user={form?.user ?? null}
        onClose={() => setForm(null)}
        onSaved={(message, saved) => {
          const isNew = form?.user === null;
          setForm(null);
          if (isNew) {
            setPage(1);
            setCreated(filtered ? saved : null);
          } else if (created?.userId === saved.userId) {
            setCreated(saved);
          }
          showSuccess(message);
        }}
      />
      <ConfirmDialog
        opened={toDelete !== null}
        title="Confirm Delete"
        message="Are you sure you want to delete this user? This action cannot be undone."
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setToDelete(null)}
      />
      <DownlineModal member={downlineOf} onClose={() => setDownlineOf(null)} />
      <NetworkModal member={networkOf} onClose={() => setNetworkOf(null)} />
    </Stack>
  );
}
