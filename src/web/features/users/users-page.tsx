import { useState } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { Group, Text } from '@mantine/core';
import { usersApi } from '../../../contract/users';
import { BulkBar, BulkRunModal, useBulkRun } from '../../components/bulk';
import { CsvButton } from '../../components/csv-button';
import { ErrorAlert } from '../../components/error-alert';
import { ListEmpty, ListPage } from '../../components/list-page';
import { useResource } from '../../components/use-resource';
import { useSelection } from '../../components/use-selection';
import { formatCount } from '../../lib/format';
import { useAuth } from '../auth/auth-context';
import { DownlineModal, type MemberRef } from './downline-modal';
import { NetworkModal } from './network-modal';
import { UserFiltersBar } from './user-filters';
import { UserForm } from './user-form';
import { userColumns } from './users-columns';
import { UsersErrorBoundary } from './users-error-boundary';
import { SAMPLE_USERS } from './users-fallback';
import {
  BULK_CHUNK, DEFAULT_SORT, hasFilters, InvalidUsersFormat, levelOptionsQuery, matchingUserIds, rankOptionsQuery, setUsersStatus, useDeleteUser, usersFilterInput,
  usersListQuery, USERS_PAGE_SIZE, useRefreshAfterBulk, type ListedUser, type UserFilters,
} from './users.api';

/** The filters and order as the address keeps them: '' is 'All'. */
const URL_FILTERS = { user: '', level: '', rank: '', sort: DEFAULT_SORT };
const toFilters = (f: typeof URL_FILTERS): UserFilters => ({
  userId: f.user || null, level: f.level || null, rankId: f.rank || null, sort: f.sort,
});

/**
 * The sidebar's link was pressed (app/screens.ts): the first page, unfiltered, starts loading, and
 * so do the filters' choices (asked for after the page's first render, they came in while its
 * rows were being drawn and drew the filters again).
 */
export function prefetch(client: QueryClient): void {
  void client.prefetchQuery(usersListQuery(toFilters(URL_FILTERS), 1));
  void client.prefetchQuery(rankOptionsQuery());
  void client.prefetchQuery(levelOptionsQuery());
}

export default function UsersPage() {
  return (
    <UsersErrorBoundary>
      <UserManagement />
    </UsersErrorBoundary>
  );
}

function UserManagement() {
  // Spec §4: a user created while a filter is active is shown first, even if the filter hides them.
  const [created, setCreated] = useState<ListedUser | null>(null);
  const users = useResource({
    noun: 'user',
    filters: URL_FILTERS,
    query: (f, page) => usersListQuery(toFilters(f), page),
    rowsOf: (data) => data.users,
    sample: SAMPLE_USERS as ListedUser[],
    idOf: (u: ListedUser) => u.userId,
    remove: useDeleteUser(),
    onDeleted: (u) => {
      if (created?.userId === u.userId) setCreated(null);
    },
  });
  const [downlineOf, setDownlineOf] = useState<MemberRef | null>(null);
  const [networkOf, setNetworkOf] = useState<MemberRef | null>(null);
  const { list, page } = users;
  const filters = toFilters(users.filters);
  const filtered = hasFilters(filters);

  const loaded = list.data?.users;
  const pinned = created && page === 1 && loaded && !loaded.some((u) => u.userId === created.userId) ? [created] : [];
  const total = list.data?.total ?? (users.failed ? SAMPLE_USERS.length : 0);

  // Only the filter that changed is written: the address may not yet hold the one changed before.
  const changeFilters = (change: Partial<UserFilters>) => {
    users.setFilters({
      ...('userId' in change ? { user: change.userId ?? '' } : {}),
      ...('level' in change ? { level: change.level ?? '' } : {}),
      ...('rankId' in change ? { rank: change.rankId ?? '' } : {}),
    });
    setCreated(null);
  };

  // Issue 24: activate or deactivate members in bulk: picked rows (on any page) or every match.
  const canEdit = useAuth().permissions.includes('users_edit') && !users.readOnly;
  const [exportError, setExportError] = useState<string | null>(null);
  const selection = useSelection<number>({
    pageIds: canEdit ? (loaded ?? []).map((u) => u.userId) : [],
    total,
    resetKey: JSON.stringify(usersFilterInput(filters)),
  });
  const bulkRun = useBulkRun<number>();
  const refreshAfterBulk = useRefreshAfterBulk();
  const names = new Map((loaded ?? []).map((u) => [u.userId, u.fullName]));
  const membersText = (count: number) => `${formatCount(count)} ${count === 1 ? 'member' : 'members'}`;
  const runStatus = (status: boolean) => {
    const count = selection.mode === 'all' ? total : selection.count;
    const picked = [...selection.ids];
    const everything = selection.mode === 'all';
    void bulkRun.start({
      title: `${status ? 'Activate' : 'Deactivate'} ${formatCount(count)} ${count === 1 ? 'member' : 'members'}`,
      items: () => (everything ? matchingUserIds(filters) : Promise.resolve(picked)),
      chunkSize: BULK_CHUNK,
      runChunk: (ids, key) => setUsersStatus(ids, status, key),
      describe: (id) => (names.has(id) ? `${names.get(id)} (${id})` : `User ${id}`),
      onFinished: () => {
        selection.clear();
        void refreshAfterBulk();
      },
    });
  };

  const columns = userColumns((page - 1) * USERS_PAGE_SIZE, {
    readOnly: users.readOnly,
    onDownline: setDownlineOf,
    onNetwork: setNetworkOf,
    onEdit: users.openEdit,
    onDelete: users.askDelete,
  });

  return (
    <ListPage
      title="User Management"
      subtitle="Manage your system users and their permissions"
      addLabel="Add User"
      resource={users}
      loadError={
        <ErrorAlert
          error={
            list.error instanceof InvalidUsersFormat
              ? 'Invalid data format from API. Using mock data instead.'
              : 'Failed to load users. Using mock data instead.'
          }
          withIcon
          sample
          onRetry={() => list.refetch()}
        />
      }
      filters={
        <Group justify="space-between" align="flex-end" wrap="wrap">
          <UserFiltersBar filters={filters} onChange={changeFilters} />
          <Group gap="md">
            <Text fw={500}>Total Users: {formatCount(total)}</Text>
            <Text size="sm" c="dimmed" aria-live="polite">
              {list.isFetching ? 'Refreshing...' : list.data ? 'Updated just now' : null}
            </Text>
          </Group>
        </Group>
      }
      toolbar={
        <>
          <Group justify="flex-end">
            <CsvButton endpoint={usersApi.csv} input={usersFilterInput(filters)} filename="users.csv" disabled={users.failed} onError={setExportError} />
          </Group>
          <ErrorAlert error={exportError} onClose={() => setExportError(null)} />
          <BulkBar
            selection={selection}
            total={total}
            noun="users"
            actions={[
              {
                label: 'Activate', color: 'green', onClick: () => runStatus(true),
                confirm: { title: 'Activate members', message: `Activate ${membersText(selection.count)}?` },
              },
              {
                label: 'Deactivate', color: 'red', onClick: () => runStatus(false),
                confirm: {
                  title: 'Deactivate members',
                  message: `Deactivate ${membersText(selection.count)}? Each change is audited; activate them again to undo it.`,
                },
              },
            ]}
          />
        </>
      }
      select={canEdit ? { selection, rowId: (u: ListedUser) => u.userId, rowLabel: (u: ListedUser) => `Select ${u.fullName}` } : undefined}
      caption="Users"
      columns={columns}
      rowKey={(u) => u._id}
      rows={loaded ? [...pinned, ...loaded] : undefined}
      empty={<ListEmpty filtered={filtered} found="No users found" none="No users available" first={{ label: 'Add Your First User', onClick: users.openCreate }} />}
      paging={list.data ? { limit: USERS_PAGE_SIZE, total } : undefined}
      confirm={{ title: 'Confirm Delete', message: () => 'Are you sure you want to delete this user? This action cannot be undone.' }}
      form={(editing) => (
        <UserForm
          user={editing}
          onClose={users.closeForm}
          onSaved={(message, saved) => {
            if (editing === null) {
              users.setPage(1);
              setCreated(filtered ? saved : null);
            } else if (created?.userId === saved.userId) {
              setCreated(saved);
            }
            users.saved(message);
          }}
        />
      )}
    >
      <DownlineModal member={downlineOf} onClose={() => setDownlineOf(null)} />
      <NetworkModal member={networkOf} onClose={() => setNetworkOf(null)} />
      <BulkRunModal run={bulkRun} />
    </ListPage>
  );
}
