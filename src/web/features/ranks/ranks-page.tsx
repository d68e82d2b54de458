import { useState } from 'react';
import { Group, Text } from '@mantine/core';
import type { Column } from '../../components/data-table';
import { ErrorAlert } from '../../components/error-alert';
import { ranksApi } from '../../../contract/ranks';
import { CsvButton } from '../../components/csv-button';
import { ListPage, ListSearch } from '../../components/list-page';
import { EditDeleteButtons } from '../../components/row-actions';
import { ActiveBadge } from '../../components/status-badge';
import { TruncatedText } from '../../components/truncated-text';
import { useResource } from '../../components/use-resource';
import { formatCount, formatINR } from '../../lib/format';
import { RankForm } from './rank-form';
import { ranksQuery, SAMPLE_RANKS, useDeleteRank, type RankRow } from './ranks.api';

// sort '': the server's order (by id, the ranks' ladder).
const FILTERS = { q: '', sort: '' };
const COMPARE = {
  name: (a: RankRow, b: RankRow) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true }),
  status: (a: RankRow, b: RankRow) => Number(b.status) - Number(a.status),
  position: (a: RankRow, b: RankRow) => a.position - b.position,
  royaltyWeight: (a: RankRow, b: RankRow) => a.royaltyWeight - b.royaltyWeight,
};

/** "2 direct · 5 team · ₹5,000.00 business", or "By hand only" when all three are 0. */
function criteriaText(r: RankRow): string {
  if (!r.minDirect && !r.minTeam && !r.minBusiness) return 'By hand only';
  return `${formatCount(r.minDirect)} direct · ${formatCount(r.minTeam)} team · ${formatINR(r.minBusiness)} business`;
}

export default function RanksPage() {
  const [exportError, setExportError] = useState<string | null>(null);
  const ranks = useResource({
    noun: 'rank',
    filters: FILTERS,
    query: () => ranksQuery(),
    match: (r: RankRow, f) => r.name.toLowerCase().includes(f.q.trim().toLowerCase()),
    compare: COMPARE,
    sample: SAMPLE_RANKS,
    idOf: (r) => r.rankId,
    remove: useDeleteRank(),
    deleted: (answer) => (answer as { message: string }).message,
  });

  const columns: Column<RankRow>[] = [
    { header: 'S.No', cell: (_r, i) => i + 1, width: 70 },
    { header: 'Name', sort: 'name', cell: (r) => <TruncatedText>{r.name}</TruncatedText> },
    { header: 'Position', sort: 'position', cell: (r) => r.position, width: 100 },
    { header: 'Weight', sort: 'royaltyWeight', cell: (r) => r.royaltyWeight, width: 90 },
    { header: 'Criteria', cell: (r) => <Text size="sm">{criteriaText(r)}</Text> },
    { header: 'Monthly reward', cell: (r) => formatINR(r.monthlyReward) },
    { header: 'Status', sort: 'status', cell: (r) => <ActiveBadge active={r.status} /> },
    {
      header: 'Actions',
      cell: (r) => (
        <EditDeleteButtons name={r.name} onEdit={() => ranks.openEdit(r)} onDelete={() => ranks.askDelete(r)} disabled={ranks.readOnly} />
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
      toolbar={
        <>
          <Group justify="flex-end">
            <CsvButton endpoint={ranksApi.csv} filename="ranks.csv" disabled={ranks.failed} onError={setExportError} />
          </Group>
          <ErrorAlert error={exportError} onClose={() => setExportError(null)} />
        </>
      }
      caption="Ranks"
      columns={columns}
      rowKey={(r) => r.key}
      empty={<Text fw={500}>No ranks found</Text>}
      confirm={{
        title: 'Confirm Delete',
        message: (r) => `Are you sure you want to delete the rank "${r.name}"? This action cannot be undone.`,
      }}
      form={(rank) => <RankForm rank={rank} onClose={ranks.closeForm} onSaved={ranks.saved} />}
    />
  );
}
