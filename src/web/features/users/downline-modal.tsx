import { useState } from 'react';
import { Alert, Badge, Modal, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { DownlineMember } from '../../../contract/users';
import { DataTable, type Column } from '../../components/data-table';
import { formatDate } from '../../lib/format';
import { DOWNLINE_PAGE_SIZE, DownlineFormatError, downlineQuery } from './users.api';

export const statusBadge = (active: boolean) => (
  <Badge color={active ? 'teal' : 'gray'} variant="light">
    {active ? 'Active' : 'Inactive'}
  </Badge>
);

export const DOWNLINE_COLUMNS: Column<DownlineMember>[] = [
  { header: 'Full Name', cell: (m) => m.fullName },
  { header: 'User ID', cell: (m) => m.userId },
  { header: 'Level', cell: (m) => m.level },
  { header: 'State', cell: (m) => m.state || 'N/A' },
  { header: 'Status', cell: (m) => statusBadge(m.status) },
  { header: 'Created Date', cell: (m) => formatDate(m.createDate) },
];

export interface MemberRef {
  userId: number;
  fullName: string;
}

/** Members directly referred by one member (spec §2 Downline modal), a page at a time. */
export function DownlineModal({ member, onClose }: { member: MemberRef | null; onClose: () => void }) {
  return (
    <Modal
      opened={member !== null}
      onClose={onClose}
      size="xl"
      centered
      title={member ? `Downline for ${member.fullName} (ID: ${member.userId})` : ''}
    >
      {member && <DownlineBody key={member.userId} userId={member.userId} />}
    </Modal>
  );
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
          {downline.error instanceof DownlineFormatError
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
