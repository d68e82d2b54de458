import { useState } from 'react';
import { Button, Group, Stack, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { membershipApi, type Member } from '../../../contract/membership';
import { CsvButton } from '../../components/csv-button';
import { ErrorAlert } from '../../components/error-alert';
import type { Column } from '../../components/data-table';
import { ActiveBadge } from '../../components/status-badge';
import { TruncatedText } from '../../components/truncated-text';
import { useListState } from '../../components/use-url-state';
import { formatINR } from '../../lib/format';
import { AmountHistoryModal } from './amount-history-modal';
import { knownMembershipSort, membersCsvInput, membersQuery, type MembershipSort } from './membership.api';
import { engineColumns, MembersTable } from './members-table';
import { ApprovalNotice } from '../../components/approval-notice';
import { SuccessBanner, useSuccessBanner } from '../../components/success-banner';
import { ActivateMembershipButton } from '../income/activation.api';

/** The order, kept in the address. */
const URL_FILTERS: { sort: MembershipSort } = { sort: '-dateTime' };

/** Membership version A (/test/membership): members with their current amount and its history. */
export default function MembershipListPage() {
  const { filters, setFilters, page, setPage } = useListState(URL_FILTERS);
  const sort = knownMembershipSort(filters.sort);
  const members = useQuery(membersQuery(null, page, sort));
  const [viewing, setViewing] = useState<Member | null>(null);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const [success, showSuccess] = useSuccessBanner();
  const [awaitingApproval, setAwaitingApproval] = useState<string | null>(null);

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
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1} size="h2">
          Membership
        </Title>
        <Group gap="sm">
          <CsvButton
            endpoint={membershipApi.listCsv}
            input={membersCsvInput(null, sort)}
            filename="memberships.csv"
            onError={setDownloadError}
          />
          <Button variant="default" leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => members.refetch()} loading={members.isFetching}>
            Refresh
          </Button>
          <ActivateMembershipButton
            onDone={({ message, awaitingApproval: pending }) => {
              setAwaitingApproval(pending ? message : null);
              if (!pending) showSuccess(message);
            }}
          />
        </Group>
      </Group>
      <SuccessBanner message={success} />
      <ErrorAlert error={downloadError} />
      <ApprovalNotice message={awaitingApproval} onClose={() => setAwaitingApproval(null)} />
      <MembersTable
        members={members}
        columns={columns}
        page={page}
        onPage={setPage}
        sort={{ value: sort, onChange: (value) => setFilters({ sort: value as MembershipSort }) }}
        loadError="Failed to load members. Please try again."
      />
      <AmountHistoryModal member={viewing} onClose={() => setViewing(null)} />
    </Stack>
  );
}
