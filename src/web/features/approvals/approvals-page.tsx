import { useState } from 'react';
import { ActionIcon, Alert, Group, Loader, SegmentedControl, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { APPROVAL_SORTS, APPROVAL_STATUSES, type Approval, type ApprovalsQuery, type ApprovalStatus } from '../../../contract/approvals';
import { DataTable, type Column } from '../../components/data-table';
import { RowAction, RowActions } from '../../components/row-actions';
import { StatusBadge, type Tone } from '../../components/status-badge';
import { TruncatedText } from '../../components/truncated-text';
import { useListState } from '../../components/use-url-state';
import { SuccessBanner, useSuccessBanner } from '../../components/success-banner';
import { formatDateTime, formatINR } from '../../lib/format';
import { useAuth } from '../auth/auth-context';
import { approvalsQuery, PAGE_SIZE } from './approvals.api';
import { kindLabel } from './approval-kinds';
import { DecisionModal } from './decision-modal';

const STATUS_LABELS: Record<ApprovalStatus, string> = { pending: 'Pending', approved: 'Approved', rejected: 'Rejected', expired: 'Expired' };
const STATUS_TONES: Record<ApprovalStatus, Tone> = { pending: 'warning', approved: 'positive', rejected: 'neutral', expired: 'negative' };

/** Status and order kept in the address (`?status=rejected&sort=-amount&page=2`). */
const URL_FILTERS = { status: 'pending', sort: '-createdAt' };
const SORTS = new Set<string>(APPROVAL_SORTS.flatMap((k) => [k, `-${k}`]));
type ApprovalSort = NonNullable<ApprovalsQuery['sort']>;

const parseStatus = (value: string): ApprovalStatus => APPROVAL_STATUSES.find((s) => s === value) ?? 'pending';

/** Why the signed-in operator may not approve this request (the server refuses it too), or null. */
function blockedReason(approval: Approval, userId: number | undefined): string | null {
  if (approval.makerId === userId) return 'You asked for this movement: another operator must approve it';
  if (approval.userId !== null && approval.userId === userId) return 'This is your own wallet: another operator must approve it';
  return null;
}

export default function ApprovalsPage() {
  const { user } = useAuth();
  const state = useListState(URL_FILTERS);
  const { page } = state;
  const status = parseStatus(state.filters.status);
  const sort = (SORTS.has(state.filters.sort) ? state.filters.sort : URL_FILTERS.sort) as ApprovalSort;
  const list = useQuery(approvalsQuery(status, page, sort));
  const [deciding, setDeciding] = useState<{ approval: Approval; action: 'approve' | 'reject' } | null>(null);
  const [success, showSuccess] = useSuccessBanner();

  const columns: Column<Approval>[] = [
    { header: 'Request', cell: (a) => `#${a.id}`, width: 90 },
    {
      header: 'Member',
      cell: (a) => (
        a.userId === null ? <Text size="sm" c="dimmed">No member</Text> : (
          <div>
            <TruncatedText fw={600} maxWidth={220}>{a.userName ?? `Member ${a.userId}`}</TruncatedText>
            <Text size="xs" c="dimmed">{`ID: ${a.userId}`}</Text>
          </div>
        )
      ),
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
                  <Tooltip label={reason} multiline w={240} withArrow>
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
                  </Tooltip>
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
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2">
          Approvals
        </Title>
        <Text c="dimmed">Money movements above the approval threshold wait here for a second operator</Text>
      </div>
      <SuccessBanner message={success} />
      <SegmentedControl
        aria-label="Status"
        w="fit-content"
        value={status}
        onChange={(value) => state.setFilters({ status: value })}
        data={APPROVAL_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
      />
      {list.isError && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
          {`Failed to load approvals: ${list.error.message}`}
        </Alert>
      )}
      {list.isPending && (
        <Group gap="xs" role="status">
          <Loader size="xs" />
          <Text size="sm" c="dimmed">
            Loading approvals...
          </Text>
        </Group>
      )}
      <DataTable
        caption={`${STATUS_LABELS[status]} approval requests`}
        columns={columns}
        rows={list.isError ? [] : list.data?.data}
        rowKey={(a) => a.id}
        loading={list.isPending || list.isPlaceholderData}
        sort={{ value: sort, onChange: (value) => state.setFilters({ sort: value }) }}
        empty={<Text c="dimmed">{`No ${STATUS_LABELS[status].toLowerCase()} requests`}</Text>}
        paging={list.data ? { page, limit: PAGE_SIZE, total: list.data.total, onPage: state.setPage } : undefined}
      />
      {deciding && (
        <DecisionModal
          approval={deciding.approval}
          action={deciding.action}
          onClose={() => setDeciding(null)}
          onDecided={(message) => {
            setDeciding(null);
            showSuccess(message);
          }}
        />
      )}
    </Stack>
  );
}
