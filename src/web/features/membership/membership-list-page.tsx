import { useState } from 'react';
import { Badge, Button, Group, Stack, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { Member } from '../../../contract/membership';
import type { Column } from '../../components/data-table';
import { formatUSD } from '../../lib/format';
import { AmountHistoryModal } from './amount-history-modal';
import { membersQuery } from './membership.api';
import { MembersTable } from './members-table';

/** Membership version A (/test/membership): members with their current amount and its history. */
export default function MembershipListPage() {
  const [page, setPage] = useState(1);
  const members = useQuery(membersQuery(null, page));
  const [viewing, setViewing] = useState<Member | null>(null);

  const columns: Column<Member>[] = [
    { header: 'Name', cell: (m) => m.fullName },
    { header: 'ID', cell: (m) => m.userId },
    { header: 'Email', cell: (m) => m.email },
    { header: 'Phone', cell: (m) => m.phone },
    {
      header: 'Status',
      cell: (m) => (
        <Badge color={m.status !== false ? 'teal' : 'gray'} variant="light">
          {m.status !== false ? 'Active' : 'Inactive'}
        </Badge>
      ),
    },
    { header: 'Current Amount', cell: (m) => formatUSD(m.currentAmount) },
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
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1} size="h2">
          Membership
        </Title>
        <Button variant="default" leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => members.refetch()} loading={members.isFetching}>
          Refresh
        </Button>
      </Group>
      <MembersTable members={members} columns={columns} page={page} onPage={setPage} loadError="Failed to load members. Please try again." />
      <AmountHistoryModal member={viewing} onClose={() => setViewing(null)} />
    </Stack>
  );
}
