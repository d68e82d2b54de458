import { useState } from 'react';
import { Alert, Button, Group, Select, Text } from '@mantine/core';
import { IconArrowBackUp, IconListDetails } from '@tabler/icons-react';
import { RUN_KINDS, RUN_SORTS, RUN_STATUSES, runsApi, type Run } from '../../../contract/income-runs';
import { CsvButton } from '../../components/csv-button';
import { ApprovalNotice } from '../../components/approval-notice';
import type { Column } from '../../components/data-table';
import { ListPage } from '../../components/list-page';
import { ErrorAlert } from '../../components/error-alert';
import { RowAction, RowActions } from '../../components/row-actions';
import { StatusBadge } from '../../components/status-badge';
import { TruncatedText } from '../../components/truncated-text';
import { useResource } from '../../components/use-resource';
import { formatCount, formatDateTime, formatINR } from '../../lib/format';
import { useAuth } from '../auth/auth-context';
import { ReverseRunForm } from './reverse-run-form';
import { RunDetailDrawer, RunProgress } from './run-detail';
import { kindLabel, periodText, STATUS_LABELS, STATUS_TONES } from './run-format';
import { RunStartForm } from './run-start-form';
import { PAGE_SIZE, runsCsvInput, runsQuery, type RunFilters, type RunSort } from './runs.api';

/**
 * Kind, status, order and page kept in the address (`?kind=royalty&sort=-periodStart&page=2`), and
 * the run whose details are open (`?run=12`: runPath, the link the Books screen gives a run).
 */
const URL_FILTERS = { kind: '', status: '', sort: '-startedAt', run: '' };
const SORTS = new Set<string>(RUN_SORTS.flatMap((k) => [k, `-${k}`]));

type UrlFilters = typeof URL_FILTERS;

/** The address's filters, with an unknown value read as not set. */
function known(f: UrlFilters): RunFilters & UrlFilters {
  return {
    kind: RUN_KINDS.find((k) => k.value === f.kind)?.value ?? '',
    status: RUN_STATUSES.find((s) => s === f.status) ?? '',
    sort: (SORTS.has(f.sort) ? f.sort : URL_FILTERS.sort) as RunSort,
    run: f.run,
  };
}

const money = (rupees: number) => (
  <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
    {formatINR(rupees)}
  </Text>
);

export default function RunsPage() {
  const canRun = useAuth().permissions.includes('income_runs');
  const state = useResource({ filters: URL_FILTERS, read: known, query: (f, page) => runsQuery(f as RunFilters, page), rowsOf: (data) => data.data });
  const { list } = state;
  // The resource reads the address through `known`.
  const filters = state.filters as ReturnType<typeof known>;
  const shown = Math.floor(Number(filters.run));
  const detailOf = shown > 0 ? shown : null;
  const setDetailOf = (runId: number | null) => state.setView({ run: runId === null ? '' : String(runId) });
  const [reversing, setReversing] = useState<Run | null>(null);
  const [existing, setExisting] = useState<number | null>(null);
  const [awaiting, setAwaiting] = useState<string | null>(null);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const showSuccess = state.done;

  const columns: Column<Run>[] = [
    { header: 'Run', cell: (r) => `#${r.runId}`, width: 70 },
    { header: 'Kind', cell: (r) => kindLabel(r.kind) },
    { header: 'Period', cell: (r) => <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{periodText(r)}</Text>, sort: 'periodStart' },
    { header: 'Status', cell: (r) => <StatusBadge tone={STATUS_TONES[r.status]}>{STATUS_LABELS[r.status]}</StatusBadge> },
    { header: 'Progress', cell: (r) => <RunProgress run={r} /> },
    { header: 'Paid', cell: (r) => formatCount(r.totals.paid) },
    { header: 'Failed', cell: (r) => formatCount(r.totals.failed) },
    { header: 'Gross ₹', cell: (r) => money(r.totals.gross) },
    { header: 'Deductions ₹', cell: (r) => money(r.totals.deductions) },
    { header: 'Net ₹', cell: (r) => money(r.totals.net) },
    {
      header: 'Started by',
      cell: (r) => (r.startedByName === null ? <Text size="sm" c="dimmed">Schedule</Text> : <TruncatedText maxWidth={130}>{r.startedByName}</TruncatedText>),
    },
    { header: 'Started at', cell: (r) => <Text size="sm" style={{ whiteSpace: 'nowrap' }}>{formatDateTime(r.startedAt)}</Text>, sort: 'startedAt' },
    {
      header: 'Actions',
      width: 90,
      cell: (r) => (
        <RowActions>
          <RowAction label="Details" name={`Details of run ${r.runId}`} icon={<IconListDetails size={18} aria-hidden />} onClick={() => setDetailOf(r.runId)} />
          {canRun && r.status === 'completed' && (
            <RowAction
              label="Reverse"
              name={`Reverse run ${r.runId}`}
              icon={<IconArrowBackUp size={18} aria-hidden />}
              color="red"
              onClick={() => setReversing(r)}
            />
          )}
        </RowActions>
      ),
    },
  ];

  return (
    <ListPage
      title="Income Runs"
      subtitle="Daily payouts, royalty, rewards and rank promotions: each kind runs exactly once per period"
      actions={<CsvButton endpoint={runsApi.csv} input={runsCsvInput(filters)} filename="income-runs.csv" onError={setDownloadError} />}
      addLabel={canRun ? 'New Run' : undefined}
      resource={state}
      notices={
        <>
          {downloadError && (
            <Alert color="red" variant="light" role="alert" withCloseButton closeButtonLabel="Dismiss" onClose={() => setDownloadError(null)}>
              {downloadError}
            </Alert>
          )}
          <ApprovalNotice message={awaiting} onClose={() => setAwaiting(null)} />
          {existing !== null && (
            <Alert color="blue" variant="light" role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => setExisting(null)}>
              <Group gap="sm">
                <Text size="sm">{`This period has already run: run #${existing}`}</Text>
                <Button size="compact-xs" variant="light" onClick={() => setDetailOf(existing)}>
                  {`Show run #${existing}`}
                </Button>
              </Group>
            </Alert>
          )}
        </>
      }
      filters={
        <Group gap="md" align="flex-end">
          <Select
            label="Kind"
            placeholder="All kinds"
            clearable
            data={RUN_KINDS.map((k) => ({ value: k.value, label: k.label }))}
            value={filters.kind || null}
            onChange={(kind) => state.setFilters({ kind: kind ?? '' })}
            w={260}
          />
          <Select
            label="Status"
            placeholder="All statuses"
            clearable
            data={RUN_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
            value={filters.status || null}
            onChange={(status) => state.setFilters({ status: status ?? '' })}
            w={200}
          />
        </Group>
      }
      toolbar={<ErrorAlert error={list.error} prefix="Failed to load runs: " withIcon onRetry={() => list.refetch()} />}
      caption="Income runs"
      columns={columns}
      rowKey={(r) => r.runId}
      empty={<Text c="dimmed">{filters.kind || filters.status ? 'No runs match these filters' : 'No runs yet'}</Text>}
      paging={list.data ? { limit: PAGE_SIZE, total: list.data.total } : undefined}
      form={() => (
        <RunStartForm
          onClose={state.closeForm}
          onFiled={(message) => {
            state.closeForm();
            showSuccess(message);
          }}
          onStarted={(run, created, message) => {
            state.closeForm();
            if (created) {
              setExisting(null);
              // The new run is the newest: the first page of the unfiltered list shows it.
              state.setFilters({ kind: '', status: '', sort: '-startedAt' });
              showSuccess(message);
            } else {
              setExisting(run.runId);
              setDetailOf(run.runId);
            }
          }}
        />
      )}
    >
      {detailOf !== null && <RunDetailDrawer runId={detailOf} onClose={() => setDetailOf(null)} />}
      {reversing && (
        <ReverseRunForm
          run={reversing}
          onClose={() => setReversing(null)}
          onDone={({ message, approvalId }) => {
            setReversing(null);
            if (approvalId === null) showSuccess(message);
            else {
              const said = /second operator/i.test(message) ? message : `Reversing run #${reversing.runId} awaits approval by a second operator`;
              setAwaiting(`${said} (approval request #${approvalId})`);
            }
          }}
        />
      )}
    </ListPage>
  );
}
