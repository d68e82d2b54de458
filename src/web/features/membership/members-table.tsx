import { Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { Member, MembershipPage } from '../../../contract/membership';
import { DataTable, type Column, type TableSort } from '../../components/data-table';
import { ErrorAlert } from '../../components/error-alert';
import { StatusBadge, type Tone } from '../../components/status-badge';
import { TruncatedText } from '../../components/truncated-text';
import { MEMBERS_PAGE_SIZE } from './membership.api';

interface MembersTableProps {
  members: UseQueryResult<MembershipPage>;
  columns: Column<Member>[];
  page: number;
  onPage: (page: number) => void;
  /** The screen's own words for a failed load. */
  loadError: string;
  /** The list's order (kept in the address by the screen). */
  sort?: TableSort;
}

/** One page of members with the screen's load error above it (both Membership screens). */
export function MembersTable({ members, columns, page, onPage, loadError, sort }: MembersTableProps) {
  return (
    <>
      {members.isError && <ErrorAlert error={loadError} />}
      <DataTable
        caption="Members"
        columns={columns}
        rows={members.data?.data ?? (members.isError ? [] : undefined)}
        rowKey={(m) => m._id}
        loading={members.isPending || members.isPlaceholderData}
        sort={sort}
        empty={<Text fw={500}>No users found</Text>}
        paging={members.data ? { page, limit: MEMBERS_PAGE_SIZE, total: members.data.total, onPage } : undefined}
      />
    </>
  );
}

const MEMBERSHIP_STATUS: Record<NonNullable<Member['membershipStatus']>, { tone: Tone; label: string }> = {
  active: { tone: 'positive', label: 'Earning' },
  completed: { tone: 'neutral', label: 'Completed' },
  legacy: { tone: 'warning', label: 'Legacy' },
};

/**
 * What the income engine did (issue 16), for both Membership screens: the plan sold and the
 * membership's status. A server that answers without these fields shows dashes.
 */
export const engineColumns: Column<Member>[] = [
  { header: 'Plan', cell: (m) => (m.planName ? <TruncatedText maxWidth={200}>{m.planName}</TruncatedText> : '—') },
  {
    header: 'Membership',
    cell: (m) => {
      const status = m.membershipStatus && MEMBERSHIP_STATUS[m.membershipStatus];
      return status ? <StatusBadge tone={status.tone}>{status.label}</StatusBadge> : '—';
    },
  },
];
