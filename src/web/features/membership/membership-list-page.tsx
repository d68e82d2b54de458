import { useState } from 'react';
import { Button } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import type { Member } from '../../../contract/membership';
import type { Column } from '../../components/data-table';
import { ActiveBadge } from '../../components/status-badge';
import { TruncatedText } from '../../components/truncated-text';
import { useResource } from '../../components/use-resource';
import { formatINR } from '../../lib/format';
import { AmountHistoryModal } from './amount-history-modal';
import { membersQuery, type MembershipSort } from './membership.api';
import { engineColumns, MembersScreen, readMembers } from './members-table';

/** The order, kept in the address. */
const URL_FILTERS: { sort: MembershipSort } = { sort: '-dateTime' };

/** Membership version A (/test/membership): members with their current amount and its history. */
export default function MembershipListPage() {
  const members = useResource({ filters: URL_FILTERS, read: readMembers, query: (f, page) => membersQuery(null, page, f.sort), rowsOf: (d) => d.data });
  const [viewing, setViewing] = useState<Member | null>(null);
  const { list } = members;

  const columns: Column<Member>[] = [
    { header: 'Name', cell: (m) => <TruncatedText maxWidth={240}>{m.fullName}</TruncatedText>, sort: 'name' },
    { header: 'ID', cell: (m) => m.userId, sort: 'userId' },
    { header: 'Email', cell: (m) => <TruncatedText maxWidth={240}>{m.email}</TruncatedText> },
    { header: 'Phone', cell: (m) => m.phone },
    {
      header: 'Status',
      cell: (m) => <ActiveBadge active={m.status !== false} />,
    },
    ...engineColumns,
    { header: 'Current Amount', cell: (m) => formatINR(m.currentAmount), sort: 'currentAmount' },
    {
      header: 'Actions',
      cell: (m) => (
        <Button size="compact-sm" variant="light" onClick={() => setViewing(m)} aria-label={`View Amount History of ${m.fullName}`}>
          View Amount History
        </Button>
      ),
    },
  ];

  return (
    <MembersScreen
      members={members}
      range={null}
      sort={members.filters.sort}
      columns={columns}
      loadError="Failed to load members. Please try again."
      actions={
        <Button variant="default" leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => list.refetch()} loading={list.isFetching}>
          Refresh
        </Button>
      }
    >
      <AmountHistoryModal member={viewing} onClose={() => setViewing(null)} />
    </MembersScreen>
  );
}
