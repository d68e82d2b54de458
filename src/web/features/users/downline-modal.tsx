import { Fragment, useState, type ReactNode } from 'react';
import { Alert, Modal, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { DownlineMember } from '../../../contract/network';
import { DataTable, type Column } from '../../components/data-table';
import { ActiveBadge } from '../../components/status-badge';
import { formatDate } from '../../lib/format';
import { isInvalidAnswer } from '../../lib/api-client';
import { DOWNLINE_PAGE_SIZE, downlineQuery } from '../network/network.api';

export const DOWNLINE_COLUMNS: Column<DownlineMember>[] = [
  { header: 'Full Name', cell: (m) => m.fullName },
  { header: 'User ID', cell: (m) => m.userId },
  { header: 'Level', cell: (m) => m.level },
  { header: 'State', cell: (m) => m.state || 'N/A' },
  { header: 'Status', cell: (m) => <ActiveBadge active={m.status} /> },
  { header: 'Created Date', cell: (m) => formatDate(m.createDate) },
];

export interface MemberRef {
  userId: number;
  fullName: string;
}

interface MemberModalProps {
  member: MemberRef | null;
  onClose: () => void;
  /** What the dialog shows of the member, e.g. 'Downline for' (then the name and id). */
  heading: string;
  body: (userId: number) => ReactNode;
}

/** A large dialog about one member, titled '<heading> <name> (ID: <id>)'. */
export function MemberModal({ member, onClose, heading, body }: MemberModalProps) {
  return (
    <Modal opened={member !== null} onClose={onClose} size="xl" centered title={member ? `${heading} ${member.fullName} (ID: ${member.userId})` : ''}>
      {member && <Fragment key={member.userId}>{body(member.userId)}</Fragment>}
    </Modal>
  );
}

/** Members directly referred by one member (spec §2 Downline modal), a page at a time. */
export function DownlineModal({ member, onClose }: { member: MemberRef | null; onClose: () => void }) {
  return <MemberModal member={member} onClose={onClose} heading="Downline for" body={(userId) => <DownlineBody userId={userId} />} />;
}

function DownlineBody({ userId }: { userId: number }) {
  const [page, setPage] = useState(1);
  const downline = useQuery(downlineQuery(userId, page));
  return (
    <Stack>
      <Text c="dimmed" size="sm">
        Members directly referred by this user.
      </Text>
      {downline.isError ? (
        <Alert color="red" variant="light" role="alert">
          {isInvalidAnswer(downline.error)
            ? 'Could not retrieve downline data in the expected format.'
            : 'Failed to fetch downline data. Please try again.'}
        </Alert>
      ) : (
        <DataTable
          caption="Direct referrals"
          columns={DOWNLINE_COLUMNS}
          rows={downline.data?.data}
          rowKey={(m) => m.userId}
          loading={downline.isPending}
          empty={<Text c="dimmed">No direct referrals found for this user.</Text>}
          paging={
            downline.data
              ? { page, limit: DOWNLINE_PAGE_SIZE, total: downline.data.totalMember, onPage: setPage }
              : undefined
          }
        />
      )}
    </Stack>
  );
}
