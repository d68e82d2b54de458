import { useState } from 'react';
import { ActionIcon, SegmentedControl, Stack, Tabs, Text } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { APPROVAL_SORTS, APPROVAL_STATUSES, approvalsApi, type Approval, type ApprovalsQuery, type ApprovalStatus } from '../../../contract/approvals';
import { BulkBar, BulkRunModal, useBulkRun } from '../../components/bulk';
import { HoverHint } from '../../components/hover-hint';
import type { Column } from '../../components/data-table';
import { csvFile, ListPage } from '../../components/list-page';
import { RowAction, RowActions } from '../../components/row-actions';
import { StatusBadge } from '../../components/status-badge';
import { TruncatedText } from '../../components/truncated-text';
import { useSelection } from '../../components/use-selection';
import { useResource } from '../../components/use-resource';
import { useListState, type ListState } from '../../components/use-url-state';
import { formatCount, formatDateTime, formatINR } from '../../lib/format';
import { useAuth } from '../auth/auth-context';
import { afterDecisions, allIdsOf, approvalsQuery, decideChunk, PAGE_SIZE } from './approvals.api';
import { kindLabel } from './approval-kinds';
import { STATUS_LABELS, STATUS_TONES } from './approval-status';
import { BulkDecisionModal } from './bulk-decision-modal';
import { DecisionModal } from './decision-modal';
import { ApprovalMemberCell } from './member-cell';
import { MyRequests } from './my-requests';
import { PageTitle } from '../../components/page-title';

/**
 * View, status and order kept in the address (`?status=rejected&sort=-amount&page=2`,
 * `?view=mine`). The queue's status defaults to pending, My requests' to all.
 */
const URL_FILTERS = { view: 'queue', status: '', sort: '-createdAt' };
/** The most rows one bulk request carries (the server takes at most 500). */
const BULK_CHUNK = 100;
const SORTS = new Set<string>(APPROVAL_SORTS.flatMap((k) => [k, `-${k}`]));
type ApprovalSort = NonNullable<ApprovalsQuery['sort']>;

const parseStatus = (value: string): ApprovalStatus | undefined => APPROVAL_STATUSES.find((s) => s === value);

/** Why the signed-in operator may not approve this request (the server refuses it too), or null. */
function blockedReason(approval: Approval, userId: number | undefined): string | null {
  if (approval.makerId === userId) return 'You asked for this movement: another operator must approve it';
  if (approval.userId !== null && approval.userId === userId) return 'This is your own wallet: another operator must approve it';
  return null;
}

/**
 * The Approvals screen: the queue for an operator with money_approve (bulk approve/reject, CSV),
 * and "My requests" (issue 24) for everyone: a tab beside the queue, or the whole screen for an
 * operator who cannot approve.
 */
export default function ApprovalsPage() {
  const { permissions } = useAuth();
  const canDecide = permissions.includes('money_approve');
  const state = useListState(URL_FILTERS);
  const view = canDecide && state.filters.view !== 'mine' ? 'queue' : 'mine';
  const status = parseStatus(state.filters.status);

  return (
    <Stack gap="lg">
      <PageTitle
        title={canDecide ? 'Approvals' : 'My requests'}
        subtitle={canDecide
          ? 'Money movements above the approval threshold wait here for a second operator'
          : 'The requests you asked for, and what the approving operator decided'}
      />
      {canDecide && (
        <Tabs value={view} onChange={(value) => state.setFilters({ view: value === 'mine' ? 'mine' : 'queue', status: '' })}>
          <Tabs.List>
            <Tabs.Tab value="queue">Approval queue</Tabs.Tab>
            <Tabs.Tab value="mine">My requests</Tabs.Tab>
          </Tabs.List>
        </Tabs>
      )}
      {view === 'queue' ? (
        <Queue status={status ?? 'pending'} state={state} />
      ) : (
        <MyRequests status={status} page={state.page} onStatus={(value) => state.setFilters({ status: value === 'all' ? '' : value })} onPage={state.setPage} />
      )}
    </Stack>
  );
}

/** The address's order, an unknown one read as the newest first. */
const readQueue = (f: typeof URL_FILTERS): typeof URL_FILTERS => (SORTS.has(f.sort) ? f : { ...f, sort: URL_FILTERS.sort });

function Queue({ status, state }: { status: ApprovalStatus; state: ListState<typeof URL_FILTERS> }) {
  const { user } = useAuth();
  const queue = useResource({
    filters: URL_FILTERS,
    state,
    read: readQueue,
    query: (f, page) => approvalsQuery(status, page, f.sort as ApprovalSort),
    rowsOf: (data) => data.data,
  });
  const { list } = queue;
  const sort = queue.filters.sort as ApprovalSort;
  const [deciding, setDeciding] = useState<{ approval: Approval; action: 'approve' | 'reject' } | null>(null);
  const [bulkAction, setBulkAction] = useState<'approve' | 'reject' | null>(null);
  const queryClient = useQueryClient();
  const rows = list.isError ? [] : (list.data?.data ?? []);
  const total = list.data?.total ?? 0;
  // Bulk decisions (issue 24) on pending requests: a page, hand-picked rows, or every pending one.
  const selection = useSelection<number>({ pageIds: status === 'pending' ? rows.map((a) => a.id) : [], total, resetKey: { status, sort } });
  const run = useBulkRun<number>();

  const startBulk = (action: 'approve' | 'reject', remarks: string | undefined) => {
    setBulkAction(null);
    const everything = selection.mode === 'all';
    const picked = [...selection.ids];
    const count = everything ? total : picked.length;
    void run.start({
      title: `${action === 'approve' ? 'Approving' : 'Rejecting'} ${formatCount(count)} ${count === 1 ? 'request' : 'requests'}`,
      items: () => (everything ? allIdsOf('pending') : Promise.resolve(picked)),
      chunkSize: BULK_CHUNK,
      runChunk: (ids, key) => decideChunk(action, ids, remarks, key),
      describe: (id) => `Request #${id}`,
      onFinished: () => {
        selection.clear();
        void afterDecisions(queryClient);
      },
    });
  };

  const columns: Column<Approval>[] = [
    { header: 'Request', cell: (a) => `#${a.id}`, width: 90 },
    {
      header: 'Member',
      cell: (a) => <ApprovalMemberCell approval={a} maxWidth={220} />,
    },
    { header: 'Kind', cell: (a) => kindLabel(a.kind), sort: 'kind' },
    { header: 'Amount', cell: (a) => <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>{formatINR(a.amount)}</Text>, sort: 'amount' },
    { header: 'Maker', cell: (a) => <TruncatedText maxWidth={180}>{a.makerName}</TruncatedText> },
    { header: 'Requested At', cell: (a) => formatDateTime(a.createdAt), sort: 'createdAt' },
    {
      header: 'Checker',
      cell: (a) => (a.checkerName === null ? (
        <Text size="sm" c="dimmed">Not decided yet</Text>
      ) : (
        <div>
          <TruncatedText maxWidth={180}>{a.checkerName}</TruncatedText>
          <Text size="xs" c="dimmed">{formatDateTime(a.decidedAt)}</Text>
        </div>
      )),
    },
    status === 'pending'
      ? {
          header: 'Actions',
          width: 110,
          cell: (a) => {
            const reason = blockedReason(a, user?.userId);
            const reasonId = `approval-${a.id}-blocked`;
            return (
              <RowActions>
                {reason ? (
                  // Shown but not usable: the tooltip says why (the server refuses it too).
                  <HoverHint label={reason} multiline w={240} withArrow focus>
                    <ActionIcon
                      variant="subtle"
                      color="teal"
                      data-disabled
                      aria-disabled
                      aria-describedby={reasonId}
                      onClick={(e) => e.preventDefault()}
                      aria-label={`Approve request ${a.id}`}
                    >
                      <IconCheck size={18} aria-hidden />
                    </ActionIcon>
                  </HoverHint>
                ) : (
                  <RowAction
                    label="Approve"
                    name={`Approve request ${a.id}`}
                    icon={<IconCheck size={18} aria-hidden />}
                    color="teal"
                    onClick={() => setDeciding({ approval: a, action: 'approve' })}
                  />
                )}
                {reason && <span id={reasonId} className="visually-hidden">{reason}</span>}
                <RowAction
                  label="Reject"
                  name={`Reject request ${a.id}`}
                  icon={<IconX size={18} aria-hidden />}
                  color="red"
                  onClick={() => setDeciding({ approval: a, action: 'reject' })}
                />
              </RowActions>
            );
          },
        }
      : {
          header: 'Outcome',
          cell: (a) => (
            <Stack gap={2}>
              <div>
                <StatusBadge tone={STATUS_TONES[a.status]}>{STATUS_LABELS[a.status]}</StatusBadge>
              </div>
              {a.remarks && <Text size="xs" c="dimmed">{a.remarks}</Text>}
            </Stack>
          ),
        },
  ];

  return (
    <ListPage
      gap="md"
      resource={queue}
      filterCsv={csvFile(approvalsApi.csv, { query: { status } }, `approvals-${status}.csv`)}
      filters={
        <SegmentedControl
          aria-label="Status"
          w="fit-content"
          value={status}
          onChange={(value) => queue.setFilters({ status: value })}
          data={APPROVAL_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
        />
      }
      failure={list.isError ? `Failed to load approvals: ${list.error.message}` : null}
      toolbar={
        status === 'pending' && (
          <BulkBar
            selection={selection}
            total={total}
            noun="requests"
            actions={[
              { label: 'Approve selected', color: 'teal', onClick: () => setBulkAction('approve') },
              { label: 'Reject selected', color: 'red', onClick: () => setBulkAction('reject') },
            ]}
          />
        )
      }
      loadingText="Loading approvals..."
      caption={`${STATUS_LABELS[status]} approval requests`}
      columns={columns}
      rowKey={(a) => a.id}
      empty={<Text c="dimmed">{`No ${STATUS_LABELS[status].toLowerCase()} requests`}</Text>}
      paging={list.data ? { limit: PAGE_SIZE, total: list.data.total } : undefined}
      select={status === 'pending' ? { selection, rowId: (a: Approval) => a.id, rowLabel: (a: Approval) => `Select request ${a.id}` } : undefined}
    >
      {deciding && (
        <DecisionModal
          approval={deciding.approval}
          action={deciding.action}
          onClose={() => setDeciding(null)}
          onDecided={(message) => {
            setDeciding(null);
            queue.done(message);
          }}
        />
      )}
      {bulkAction && (
        <BulkDecisionModal
          action={bulkAction}
          count={selection.count}
          onCancel={() => setBulkAction(null)}
          onConfirm={(remarks) => startBulk(bulkAction, remarks)}
        />
      )}
      <BulkRunModal run={run} />
    </ListPage>
  );
}
