import { useState } from 'react';
import { ActionIcon, Alert, Badge, Button, Group, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconEdit, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { Rank } from '../../../contract/ranks';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable, type Column } from '../../components/data-table';
import { SuccessBanner, useSuccessBanner } from '../../components/success-banner';
import { errorMessage } from '../../lib/api-client';
import { RankFormModal } from './rank-form';
import { ranksQuery, SAMPLE_RANKS, useDeleteRank } from './ranks.api';

export default function RanksPage() {
  const ranks = useQuery(ranksQuery());
  const [search, setSearch] = useState('');
  const [form, setForm] = useState<{ rank: Rank | null } | null>(null);
  const [toDelete, setToDelete] = useState<Rank | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [success, showSuccess] = useSuccessBanner();
  const remove = useDeleteRank();

  const failed = ranks.isError && !ranks.data;
  const all = ranks.data ?? (failed ? SAMPLE_RANKS : undefined);
  const term = search.trim().toLowerCase();
  const rows = all?.filter((r) => r.name.toLowerCase().includes(term));

  async function confirmDelete() {
    if (!toDelete) return;
    setActionError(null);
    try {
      const result = await remove.mutateAsync(toDelete.rankId);
      showSuccess(result.message);
    } catch (err) {
      setActionError(errorMessage(err, 'Failed to delete rank'));
    }
    setToDelete(null);
  }

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
            <ActionIcon variant="subtle" aria-label={`Edit ${r.name}`} onClick={() => setForm({ rank: r })} disabled={failed}>
              <IconEdit size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Delete">
            <ActionIcon variant="subtle" color="red" aria-label={`Delete ${r.name}`} onClick={() => setToDelete(r)} disabled={failed}>
              <IconTrash size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
        </Group>
      ),
      width: 110,
    },
  ];

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={1} size="h2">
          Ranks Management
        </Title>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setForm({ rank: null })} disabled={failed}>
          Add Rank
        </Button>
      </Group>
      <SuccessBanner message={success} />
      {actionError && (
        <Alert color="red" variant="light" role="alert" withCloseButton onClose={() => setActionError(null)}>
          {actionError}
        </Alert>
      )}
      {failed && (
        <Alert color="orange" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
          <Group gap="sm">
            <Text size="sm">{`Failed to load ranks: ${ranks.error.message}`}</Text>
            <Badge color="orange">Sample data</Badge>
            <Button size="compact-xs" variant="light" color="orange" onClick={() => ranks.refetch()}>
              Retry
            </Button>
          </Group>
        </Alert>
      )}
      <TextInput
        aria-label="Search ranks by name"
        placeholder="Search ranks..."
        leftSection={<IconSearch size={16} aria-hidden />}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        maw={320}
      />
      <DataTable
        caption="Ranks"
        columns={columns}
        rows={rows}
        rowKey={(r) => r._id}
        loading={ranks.isPending}
        empty={<Text fw={500}>No ranks found</Text>}
      />
      <RankFormModal
        opened={form !== null}
        rank={form?.rank ?? null}
        onClose={() => setForm(null)}
        onSaved={(message) => {
          setForm(null);
          showSuccess(message);
        }}
      />
      <ConfirmDialog
        opened={toDelete !== null}
        title="Confirm Delete"
        message={toDelete ? `Are you sure you want to delete the rank "${toDelete.name}"? This action cannot be undone.` : ''}
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setToDelete(null)}
      />
    </Stack>
  );
}
