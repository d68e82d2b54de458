import { useState, type ReactNode } from 'react';
import { Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { membershipApi, type Member, type MembershipPage } from '../../../contract/membership';
import { ApprovalNotice } from '../../components/approval-notice';
import type { Column } from '../../components/data-table';
import { ErrorAlert } from '../../components/error-alert';
import { csvFile, ListPage } from '../../components/list-page';
import type { Resource } from '../../components/use-resource';
import type { UrlState } from '../../components/use-url-state';
import { ActivateMembershipButton } from '../income/activation.api';
import { StatusBadge, type Tone } from '../../components/status-badge';
import { TruncatedText } from '../../components/truncated-text';
import { knownMembershipSort, MEMBERS_PAGE_SIZE, membersCsvInput, type DateRange, type MembershipSort } from './membership.api';

/** What both Membership screens keep in the address: the order (and version B's range). */
export type MembersUrlState = { sort: string } & UrlState;

/** The address's order, an unknown one read as the default (a module-level function). */
export const readMembers = <F extends MembersUrlState>(f: F): F => ({ ...f, sort: knownMembershipSort(f.sort) });

interface MembersScreenProps {
  members: Resource<Member> & { list: UseQueryResult<MembershipPage> };
  /** The applied range (version B) or none, and the order: what the CSV exports. */
  range: DateRange | null;
  sort: MembershipSort;
  columns: Column<Member>[];
  /** The screen's own words for a failed load. */
  loadError: string;
  /** Header buttons before Activate Membership (version A's Refresh). */
  actions?: ReactNode;
  filters?: ReactNode;
  children?: ReactNode;
}

/**
 * Both Membership screens: title, Download CSV, Activate Membership (its awaiting-approval
 * notice), the screen's filters, one page of members with the screen's load error above it.
 */
export function MembersScreen({ members, range, sort, columns, loadError, actions, filters, children }: MembersScreenProps) {
  const [awaitingApproval, setAwaitingApproval] = useState<string | null>(null);
  const { list } = members;
  return (
    <ListPage
      title="Membership"
      csv={csvFile(membershipApi.listCsv, membersCsvInput(range, sort), 'memberships.csv')}
      actions={
        <>
          {actions}
          <ActivateMembershipButton
            onDone={({ message, awaitingApproval: pending }) => {
              setAwaitingApproval(pending ? message : null);
              if (!pending) members.done(message);
            }}
          />
        </>
      }
      resource={members}
      notices={<ApprovalNotice message={awaitingApproval} onClose={() => setAwaitingApproval(null)} />}
      filters={filters}
      toolbar={list.isError && <ErrorAlert error={loadError} />}
      caption="Members"
      columns={columns}
      rowKey={(m) => m._id}
      empty={<Text fw={500}>No users found</Text>}
      paging={list.data ? { limit: MEMBERS_PAGE_SIZE, total: list.data.total } : undefined}
    >
      {children}
    </ListPage>
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
