import { ActionIcon, Badge, Group, Text, Tooltip } from '@mantine/core';
import { IconEdit, IconTrash } from '@tabler/icons-react';
import type { Rank } from '../../../contract/ranks';
import type { Column } from '../../components/data-table';
import { ErrorAlert } from '../../components/error-alert';
import { ListPage, ListSearch } from '../../components/list-page';
import { useResource } from '../../components/use-resource';
import { RankForm } from './rank-form';
import { ranksQuery, SAMPLE_RANKS, useDeleteRank } from './ranks.api';

const FILTERS = { q: '' };

export default function RanksPage() {
  const ranks = useResource({
    noun: 'rank',
    filters: FILTERS,
    query: () => ranksQuery(),
    match: (r: Rank, f) => r.name.toLowerCase().includes(f.q.trim().toLowerCase()),
    sample: SAMPLE_RANKS,
    idOf: (r) => r.rankId,
    remove: useDeleteRank(),
    deleted: (answer) => (answer as { message: string }).message,
  });

  const columns: Column<Rank>[] = [
    { header: 'S.No', cell: (_r, i) => i + 1, width: 70 },
    { header: 'Name', cell: (r) => r.name },
    {
      header: 'Status',
      cell: (r) => (
        <Badge color={r.status ? 'teal' : 'gray'} variant="light">
          {r.status ? 'Active' : 'Inactive'}
        </Badge>
      ),
    },
    {
      header: 'Actions',
      cell: (r) => (
        <Group gap={4} wrap="nowrap">
          <Tooltip label="Edit">
            <ActionIcon variant="subtle" aria-label={`Edit ${r.name}`} onClick={() => ranks.openEdit(r)} disabled={ranks.readOnly}>
              <IconEdit size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Delete">
            <ActionIcon variant="subtle" color="red" aria-label={`Delete ${r.name}`} onClick={() => ranks.askDelete(r)} disabled={ranks.readOnly}>
              <IconTrash size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
        </Group>
      ),
      width: 110,
    },
  ];

  return (
    <ListPage
      title="Ranks Management"
      addLabel="Add Rank"
      resource={ranks}
      loadError={
        <ErrorAlert error={ranks.list.error} prefix="Failed to load ranks: " withIcon sample onRetry={() => ranks.list.refetch()} />
      }
      filters={
        <ListSearch
          label="Search ranks by name"
          placeholder="Search ranks..."
          value={ranks.filters.q}
          onChange={(q) => ranks.setFilters({ q })}
        />
      }
      caption="Ranks"
      columns={columns}
      rowKey={(r) => r._id}
      empty={<Text fw={500}>No ranks found</Text>}
      confirm={{
        title: 'Confirm Delete',
        message: (r) => `Are you sure you want to delete the rank "${r.name}"? This action cannot be undone.`,
      }}
      form={(rank) => <RankForm rank={rank} onClose={ranks.closeForm} onSaved={ranks.saved} />}
    />
  );
}
