import { useState } from 'react';
import { Alert, Badge, Button, Group, Loader, SegmentedControl, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { APPROVAL_STATUSES, type Approval, type ApprovalStatus } from '../../../contract/approvals';
import { DataTable, type Column } from '../../components/data-table';
import { SuccessBanner, useSuccessBanner } from '../../components/success-banner';
import { formatDateTime, formatINR } from '../../lib/format';
import { useAuth } from '../auth/auth-context';
import { approvalsQuery, PAGE_SIZE } from './approvals.api';
import { kindLabel } from './approval-kinds';
import { DecisionModal } from './decision-modal';

const STATUS_LABELS: Record<ApprovalStatus, string> = { pending: 'Pending', approved: 'Approved', rejected: 'Rejected' };
const STATUS_COLORS: Record<ApprovalStatus, string> = { pending: 'yellow', approved: 'teal', rejected: 'gray' };

const parseStatus = (value: string | null): ApprovalStatus =>
  APPROVAL_STATUSES.find((s) => s === value) ?? 'pending';

/** Why the signed-in operator may not approve this request (the server refuses it too), or null. */
function blockedReason(approval: Approval, userId: number | undefined): string | null {
  if (approval.makerId === userId) return 'You asked for this movement: another operator must approve it';
  if (approval.userId === userId) return 'This is your own wallet: another operator must approve it';
  return null;
}

export default function ApprovalsPage() {
  const { user } = useAuth();
  const [params, setParams] = useSearchParams();
  const status = parseStatus(params.get('status'));
  const page = Math.max(1, Number(params.get('page')) || 1);
  const list = useQuery(approvalsQuery(status, page));
  const [deciding, setDeciding] = useState<{ approval: Approval; action: 'approve' | 'reject' } | null>(null);
  const [success, showSuccess] = useSuccessBanner();

  const show = (next: { status?: ApprovalStatus; page?: number }) => {
    const query = new URLSearchParams();
    const nextStatus = next.status ?? status;
    if (nextStatus !== 'pending') query.set('status', nextStatus);
    const nextPage = next.page ?? 1;
    if (nextPage > 1) query.set('page', String(nextPage));
    setParams(query);
  };

  const columns: Column<Approval>[] = [
    { header: 'Request', cell: (a) => `#${a.id}`, width: 90 },
    {
      header: 'Member',
      cell: (a) => (
        <div>
          <Text size="sm" fw={600}>{a.userName}</Text>
          <Text size="xs" c="dimmed">{`ID: ${a.userId}`}</Text>
        </div>
      ),
    },
    { header: 'Kind', cell: (a) => kindLabel(a.kind) },
    { header: 'Amount', cell: (a) => <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>{formatINR(a.amount)}</Text> },
    { header: 'Maker', cell: (a) => a.makerName },
    { header: 'Requested At', cell: (a) => formatDateTime(a.createdAt) },
    {
      header: 'Checker',
      cell: (a) => (a.checkerName === null ? (
        <Text size="sm" c="dimmed">Not decided yet</Text>
      ) : (
        <div>
          <Text size="sm">{a.checkerName}</Text>
          <Text size="xs" c="dimmed">{formatDateTime(a.decidedAt)}</Text>
        </div>
      )),
    },
    status === 'pending'
      ? {
          header: 'Actions',
          width: 190,
          cell: (a) => {
            const reason = blockedReason(a, user?.userId);
            const reasonId = `approval-${a.id}-blocked`;
            return (
              <Group gap="xs" wrap="nowrap">
                {reason ? (
                  <Tooltip label={reason} multiline w={240} withArrow>
                    <Button
                      size="xs"
                      color="teal"
                      data-disabled
                      aria-disabled
                      aria-describedby={reasonId}
                      onClick={(e) => e.preventDefault()}
                      aria-label={`Approve request ${a.id}`}
                    >
                      Approve
                    </Button>
                  </Tooltip>
                ) : (
                  <Button size="xs" color="teal" onClick={() => setDeciding({ approval: a, action: 'approve' })} aria-label={`Approve request ${a.id}`}>
                    Approve
                  </Button>
                )}
                {reason && <span id={reasonId} className="visually-hidden">{reason}</span>}
                <Button
                  size="xs"
                  variant="light"
                  color="red"
                  onClick={() => setDeciding({ approval: a, action: 'reject' })}
                  aria-label={`Reject request ${a.id}`}
                >
                  Reject
                </Button>
              </Group>
            );
          },
        }
      : {
          header: 'Outcome',
          cell: (a) => (
            <Stack gap={2}>
              <Badge tt="none" variant="light" color={STATUS_COLORS[a.status]} w="fit-content">
                {STATUS_LABELS[a.status]}
              </Badge>
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
        onChange={(value) => show({ status: value as ApprovalStatus })}
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
        loading={list.isPending}
        empty={<Text c="dimmed">{`No ${STATUS_LABELS[status].toLowerCase()} requests`}</Text>}
        paging={list.data ? { page, limit: PAGE_SIZE, total: list.data.total, onPage: (p) => show({ page: p }) } : undefined}
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
