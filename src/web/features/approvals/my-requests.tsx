import { useMemo } from 'react';
import { SegmentedControl, Text } from '@mantine/core';
import { APPROVAL_STATUSES, approvalsApi, type Approval, type ApprovalStatus } from '../../../contract/approvals';
import type { Column } from '../../components/data-table';
import { csvFile, ListPage } from '../../components/list-page';
import { ErrorAlert } from '../../components/error-alert';
import { StatusBadge } from '../../components/status-badge';
import { TruncatedText } from '../../components/truncated-text';
import { useResource } from '../../components/use-resource';
import type { ListState } from '../../components/use-url-state';
import { formatDateTime, formatINR } from '../../lib/format';
import { myRequestsQuery, PAGE_SIZE } from './approvals.api';
import { kindLabel } from './approval-kinds';
import { STATUS_LABELS, STATUS_TONES } from './approval-status';
import { ApprovalMemberCell } from './member-cell';

const ALL = 'all';
const MINE_FILTERS = { status: '' };

/**
 * "My requests" (issue 24): the requests the signed-in operator filed, whatever their permissions,
 * with their state, who decided and why.
 */
export function MyRequests({ status, page, onStatus, onPage }: {
  status: ApprovalStatus | undefined;
  page: number;
  onStatus: (status: string) => void;
  onPage: (page: number) => void;
}) {
  // The screen keeps the status and page (in its address); the list reads them from here.
  const filters = useMemo(() => ({ status: status ?? '' }), [status]);
  const state: ListState<typeof MINE_FILTERS> = {
    filters,
    page,
    setPage: onPage,
    setFilters: (patch) => onStatus(patch.status || ALL),
    setView: () => {},
  };
  const mine = useResource({ filters: MINE_FILTERS, state, query: (_f, p) => myRequestsQuery(status, p), rowsOf: (data) => data.data });
  const { list } = mine;

  const columns: Column<Approval>[] = [
    { header: 'Request', cell: (a) => `#${a.id}`, width: 90 },
    { header: 'Kind', cell: (a) => kindLabel(a.kind) },
    {
      header: 'Member',
      cell: (a) => <ApprovalMemberCell approval={a} maxWidth={200} />,
    },
    { header: 'Amount', cell: (a) => <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>{formatINR(a.amount)}</Text> },
    { header: 'Requested At', cell: (a) => formatDateTime(a.createdAt) },
    { header: 'Status', cell: (a) => <StatusBadge tone={STATUS_TONES[a.status]}>{STATUS_LABELS[a.status]}</StatusBadge> },
    {
      header: 'Checker',
      cell: (a) => (a.checkerName === null ? <Text size="sm" c="dimmed">Not decided yet</Text> : (
        <div>
          <TruncatedText maxWidth={180}>{a.checkerName}</TruncatedText>
          <Text size="xs" c="dimmed">{formatDateTime(a.decidedAt)}</Text>
        </div>
      )),
    },
    {
      header: 'Reason',
      cell: (a) => (a.remarks ? <TruncatedText size="sm" maxWidth={260}>{a.remarks}</TruncatedText> : <Text size="sm" c="dimmed">—</Text>),
    },
  ];

  const label = status ? STATUS_LABELS[status].toLowerCase() : '';
  return (
    <ListPage
      gap="md"
      resource={mine}
      filterCsv={csvFile(approvalsApi.mineCsv, { query: { status } }, `my-requests${status ? `-${status}` : ''}.csv`, list.isError)}
      filters={
        <SegmentedControl
          aria-label="Status of my requests"
          w="fit-content"
          value={status ?? ALL}
          onChange={onStatus}
          data={[{ value: ALL, label: 'All' }, ...APPROVAL_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))]}
        />
      }
      toolbar={list.isError && <ErrorAlert error={list.error} prefix="Failed to load your requests: " withIcon />}
      loadingText="Loading your requests..."
      caption="My requests"
      columns={columns}
      rowKey={(a) => a.id}
      empty={<Text c="dimmed">{status ? `You have no ${label} requests` : 'You have not asked for any approval yet'}</Text>}
      paging={list.data ? { limit: PAGE_SIZE, total: list.data.total } : undefined}
    />
  );
}
