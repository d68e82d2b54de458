import { useState } from 'react';
import { Loader, Modal, Stack, Text } from '@mantine/core';
import { IconEdit, IconHistory } from '@tabler/icons-react';
import { plansApi } from '../../../contract/income';
import { CsvExport } from '../../components/csv-button';
import type { Column } from '../../components/data-table';
import { DataTable } from '../../components/data-table';
import { ErrorAlert } from '../../components/error-alert';
import { ListPage } from '../../components/list-page';
import { RowAction, RowActions } from '../../components/row-actions';
import { ActiveBadge } from '../../components/status-badge';
import { TruncatedText } from '../../components/truncated-text';
import { useResource } from '../../components/use-resource';
import { formatDateTime, formatINR } from '../../lib/format';
import { useAuth } from '../auth/auth-context';
import { PlanForm } from './plan-form';
import { plansQuery, usePlanVersions, type Plan, type PlanVersion } from './plans.api';

// sort '': the server's order (by name). Plans are a short list sent whole: sorted in the browser,
// the order kept in the address (?sort=-price).
const FILTERS = { sort: '' };

/** "1.5 % (₹15.00)" for a percent of the price, "₹20.00" for a fixed day. */
export function dailyText(v: PlanVersion): string {
  return v.dailyMode === 'percent' ? `${v.dailyValue} % (${formatINR(v.dailyAmount)})` : formatINR(v.dailyAmount);
}

const days = (n: number) => `${n.toLocaleString('en-IN')} ${n === 1 ? 'day' : 'days'}`;

/** The version a row shows: the one in force, else the first one scheduled (a plan not yet started). */
const shown = (p: Plan) => (p.current ?? p.scheduled) as PlanVersion;

const byText = (a: string, b: string) => a.localeCompare(b, 'en-IN', { sensitivity: 'base' });
/** Issue 24: the Plans list sorts by name and by the amounts in force (price, daily payout, cap) and duration. */
const COMPARE: Record<string, (a: Plan, b: Plan) => number> = {
  name: (a, b) => byText(shown(a).name, shown(b).name) || a.planId - b.planId,
  price: (a, b) => shown(a).price - shown(b).price || a.planId - b.planId,
  dailyAmount: (a, b) => shown(a).dailyAmount - shown(b).dailyAmount || a.planId - b.planId,
  durationDays: (a, b) => shown(a).durationDays - shown(b).durationDays || a.planId - b.planId,
  cap: (a, b) => shown(a).cap - shown(b).cap || a.planId - b.planId,
};

function Scheduled({ plan }: { plan: Plan }) {
  if (!plan.current || !plan.scheduled) return <Text size="sm" c="dimmed">None</Text>;
  const s = plan.scheduled;
  return (
    <Text size="sm">
      From {s.effectiveFrom}: {formatINR(s.price)}, {dailyText(s)}, {days(s.durationDays)}, cap {formatINR(s.cap)}
      {s.active ? '' : ', inactive'}
    </Text>
  );
}

function VersionsModal({ plan, onClose }: { plan: Plan; onClose: () => void }) {
  const versions = usePlanVersions(plan.planId);
  const columns: Column<PlanVersion>[] = [
    { header: 'Effective from', cell: (v) => v.effectiveFrom },
    { header: 'Price', cell: (v) => formatINR(v.price) },
    { header: 'Daily payout', cell: dailyText },
    { header: 'Duration', cell: (v) => days(v.durationDays) },
    { header: 'Cap', cell: (v) => formatINR(v.cap) },
    { header: 'Status', cell: (v) => <ActiveBadge active={v.active} /> },
    { header: 'Saved by', cell: (v) => v.createdByName ?? 'N/A' },
    { header: 'Saved at', cell: (v) => formatDateTime(v.createdAt) },
  ];
  return (
    <Modal opened onClose={onClose} title={`Versions of ${shown(plan).name}`} size="xl" centered>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Newest first. Each membership keeps the version it was sold with.
        </Text>
        <ErrorAlert error={versions.error} prefix="Failed to load versions: " onRetry={() => versions.refetch()} />
        {versions.isPending && <Loader size="sm" aria-label="Loading versions" />}
        {versions.data && (
          <DataTable caption={`Versions of ${shown(plan).name}`} columns={columns} rows={versions.data} rowKey={(v) => v.versionId} empty={<Text>No versions</Text>} />
        )}
      </Stack>
    </Modal>
  );
}

export default function PlansPage() {
  const canManage = useAuth().permissions.includes('income_settings');
  const [history, setHistory] = useState<Plan | null>(null);
  const plans = useResource({ noun: 'plan', filters: FILTERS, query: () => plansQuery(), idOf: (p: Plan) => p.planId, compare: COMPARE });

  const columns: Column<Plan>[] = [
    { header: 'Name', sort: 'name', cell: (p) => <TruncatedText>{shown(p).name}</TruncatedText> },
    { header: 'Price', sort: 'price', cell: (p) => formatINR(shown(p).price) },
    { header: 'Daily payout', sort: 'dailyAmount', cell: (p) => dailyText(shown(p)) },
    { header: 'Duration', sort: 'durationDays', cell: (p) => days(shown(p).durationDays) },
    { header: 'Cap', sort: 'cap', cell: (p) => formatINR(shown(p).cap) },
    { header: 'Status', cell: (p) => <ActiveBadge active={shown(p).active} /> },
    { header: 'In force', cell: (p) => (p.current ? `from ${p.current.effectiveFrom}` : `starts ${shown(p).effectiveFrom}`) },
    { header: 'Scheduled change', cell: (p) => <Scheduled plan={p} /> },
    {
      header: 'Actions',
      width: 100,
      cell: (p) => (
        <RowActions>
          {canManage && (
            <RowAction label="Change" name={`Change ${shown(p).name}`} icon={<IconEdit size={18} aria-hidden />} onClick={() => plans.openEdit(p)} />
          )}
          <RowAction label="Versions" name={`Versions of ${shown(p).name}`} icon={<IconHistory size={18} aria-hidden />} onClick={() => setHistory(p)} />
        </RowActions>
      ),
    },
  ];

  return (
    <ListPage
      title="Membership Plans"
      subtitle="What a membership costs and earns. A change is a new version from a day you choose; memberships keep the terms they were sold with."
      addLabel={canManage ? 'Add Plan' : undefined}
      resource={plans}
      loadError={<ErrorAlert error={plans.list.error} prefix="Failed to load plans: " withIcon onRetry={() => plans.list.refetch()} />}
      toolbar={<CsvExport endpoint={plansApi.csv} filename="plans.csv" disabled={plans.failed} />}
      caption="Membership plans"
      columns={columns}
      rowKey={(p) => p.planId}
      empty={<Text fw={500}>No plans yet{canManage ? ': add the first one' : ''}</Text>}
      form={(plan) => <PlanForm plan={plan} onClose={plans.closeForm} onSaved={plans.saved} />}
    >
      {history && <VersionsModal plan={history} onClose={() => setHistory(null)} />}
    </ListPage>
  );
}
