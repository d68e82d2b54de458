import { useIdempotencyKey } from '../../lib/money-request';
import { Button, Fieldset, Group, Loader, Paper, SegmentedControl, Select, SimpleGrid, Stack, Switch, Text, TextInput, Title, type TextInputProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { isoToWireDate, wireDate } from '../../../contract/common';
import { incomeSettings, incomeSettingsApi, LEVELS, MONTHLY_REWARD_MODES, type IncomeSettings } from '../../../contract/income';
import { CsvExport } from '../../components/csv-button';
import { DataTable, type Column } from '../../components/data-table';
import { ErrorAlert } from '../../components/error-alert';
import { PageTitle } from '../../components/page-title';
import { StatusBadge } from '../../components/status-badge';
import { SuccessBanner, useSuccessBanner } from '../../components/success-banner';
import { useContractForm } from '../../components/use-contract-form';
import { formatDateTime } from '../../lib/format';
import { useAuth } from '../auth/auth-context';
import { istDay } from './plans.api';
import { incomeSettingsQuery, useSaveIncomeSettings, type SettingsVersion } from './settings.api';

/** The form checks the settings flat (each problem under its own field), plus the day. */
const formSchema = incomeSettings.and(z.object({ effectiveFrom: wireDate.optional() }));
type FormBody = IncomeSettings & { effectiveFrom?: string };

/** The typed text as a number for the contract to check, never rewritten (see plan-form). */
function numberOf(text: string): number {
  const t = text.trim();
  return /^[0-9]+(\.[0-9]+)?$/.test(t) ? Number(t) : Number.NaN;
}

const REWARD_MODE_LABELS: Record<(typeof MONTHLY_REWARD_MODES)[number], string> = {
  off: 'Off',
  rank: 'By rank (each rank\u2019s monthly reward)',
  target: 'By target (team business in the month)',
};

/** yyyy-mm-dd from the wire's dd-mm-yyyy. */
const isoOf = (wire: string) => wire.split('-').reverse().join('-');

/** A number as typed (numberOf reads it on submit): the decimal keypad on a phone, no autofill. */
function DecimalInput(props: TextInputProps) {
  return <TextInput inputMode="decimal" autoComplete="off" {...props} />;
}

/** One group of the form in two columns (one on a phone), read-only for a viewer; `footer` spans the group. */
function FieldGroup({ legend, disabled, footer, children }: { legend: string; disabled: boolean; footer?: ReactNode; children: ReactNode }) {
  return (
    <Fieldset legend={legend} disabled={disabled}>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>{children}</SimpleGrid>
      {footer}
    </Fieldset>
  );
}

function SettingsForm({ shown, firstSave, readOnly, onSaved }: { shown: SettingsVersion; firstSave: boolean; readOnly: boolean; onSaved: (m: string) => void }) {
  const save = useSaveIncomeSettings();
  const keys = useIdempotencyKey();
  const s = shown.settings;
  const earliest = istDay(firstSave ? 0 : 1);
  const { form, error, submit } = useContractForm({
    initialValues: {
      levelIncome: s.levelIncome.map(String),
      compression: s.compression,
      tdsPercent: String(s.tdsPercent),
      tdsWithoutPanPercent: String(s.tdsWithoutPanPercent),
      adminChargePercent: String(s.adminChargePercent),
      payTo: s.payTo,
      payoutTime: s.payoutTime,
      payOnWeekends: s.payOnWeekends,
      royaltyPoolPercent: String(s.royaltyPoolPercent),
      royaltyPeriod: s.royaltyPeriod,
      referralBonus: String(s.referralBonus),
      monthlyRewardMode: s.monthlyRewardMode,
      monthlyRewardTarget: String(s.monthlyRewardTarget),
      monthlyRewardAmount: String(s.monthlyRewardAmount),
      effectiveFrom: earliest,
    },
    schema: formSchema,
    toBody: (v): FormBody => ({
      levelIncome: v.levelIncome.map(numberOf),
      compression: v.compression,
      tdsPercent: numberOf(v.tdsPercent),
      tdsWithoutPanPercent: numberOf(v.tdsWithoutPanPercent),
      adminChargePercent: numberOf(v.adminChargePercent),
      payTo: v.payTo,
      payoutTime: v.payoutTime,
      payOnWeekends: v.payOnWeekends,
      royaltyPoolPercent: numberOf(v.royaltyPoolPercent),
      royaltyPeriod: v.royaltyPeriod,
      referralBonus: numberOf(v.referralBonus),
      monthlyRewardMode: v.monthlyRewardMode,
      monthlyRewardTarget: numberOf(v.monthlyRewardTarget),
      monthlyRewardAmount: numberOf(v.monthlyRewardAmount),
      effectiveFrom: v.effectiveFrom ? isoToWireDate(v.effectiveFrom) : undefined,
    }),
  });
  const levelsError = typeof form.errors.levelIncome === 'string' ? form.errors.levelIncome : null;
  const target = form.values.monthlyRewardMode === 'target';

  return (
    <form
      aria-label="Income settings"
      noValidate
      onSubmit={submit(async ({ effectiveFrom, ...settings }) => {
        // Settings are a lever that makes money (issue 22): filed for a second operator, the answer says so.
        const body = { settings, effectiveFrom };
        try {
          onSaved((await save.mutateAsync({ body, idempotencyKey: keys.keyFor(body) })).message);
        } catch (err) {
          keys.settle(err);
          throw err;
        }
      })}
    >
      <Stack gap="md">
        <ErrorAlert error={error} />
        <Fieldset legend="Level income" disabled={readOnly}>
          <Text size="sm" c="dimmed" mb="xs">
            Paid on each activation to the uplines: level 1 is the member who referred them, level 2 their referrer, and so on. A percentage of the plan&apos;s
            price, rounded down to the paisa; together at most 100 %.
          </Text>
          <SimpleGrid cols={{ base: 2, sm: 5 }}>
            {Array.from({ length: LEVELS }, (_, i) => (
              <DecimalInput
                key={i}
                label={`Level ${i + 1} (%)`}
                {...form.getInputProps(`levelIncome.${i}`)}
                // The message shows once, at the top; the field is marked.
                error={Boolean(form.errors[`levelIncome.${i}`])}
              />
            ))}
          </SimpleGrid>
          {levelsError && (
            <Text size="sm" c="red" mt="xs" role="alert">
              {levelsError}
            </Text>
          )}
          <Switch
            mt="md"
            label="Compression"
            description="On: an inactive upline's share passes up to the next active upline. Off: an inactive upline's share is not paid."
            {...form.getInputProps('compression', { type: 'checkbox' })}
          />
        </Fieldset>

        <FieldGroup
          legend="Daily payout"
          disabled={readOnly}
          footer={<Switch mt="md" label="Pay on weekends" description="Off: business days are Monday to Friday." {...form.getInputProps('payOnWeekends', { type: 'checkbox' })} />}
        >
          <DecimalInput label="TDS (%)" description="Deducted from each day's payout of a member with a PAN (section 194H), its own ledger line" {...form.getInputProps('tdsPercent')} />
          <DecimalInput
            label="TDS without PAN (%)"
            description="Deducted instead when the member has no PAN (section 206AA: at least 20 %)"
            {...form.getInputProps('tdsWithoutPanPercent')}
          />
          <DecimalInput label="Admin charge (%)" description="Deducted from each day's payout, its own ledger line" {...form.getInputProps('adminChargePercent')} />
          <Select
            label="Pay to"
            description="Bank: a member without a primary bank account gets a Failure row (Pay Now later)"
            data={[{ value: 'wallet', label: 'Wallet' }, { value: 'bank', label: 'Bank account' }]}
            allowDeselect={false}
            {...form.getInputProps('payTo')}
          />
          <TextInput type="time" label="Payout time" description="Each business day, India time (Asia/Kolkata)" {...form.getInputProps('payoutTime')} />
        </FieldGroup>

        <FieldGroup legend="Royalty" disabled={readOnly}>
          <DecimalInput label="Royalty pool (%)" description="Of the period's revenue (membership fees), shared by the rank weights" {...form.getInputProps('royaltyPoolPercent')} />
          <Stack gap={4}>
            <Text size="sm" fw={500} id="royalty-period-label">
              Royalty period
            </Text>
            <SegmentedControl
              aria-labelledby="royalty-period-label"
              data={[{ value: 'monthly', label: 'Monthly' }, { value: 'weekly', label: 'Weekly' }]}
              value={form.values.royaltyPeriod}
              onChange={(v) => form.setFieldValue('royaltyPeriod', v as IncomeSettings['royaltyPeriod'])}
            />
          </Stack>
        </FieldGroup>

        <FieldGroup legend="Rewards" disabled={readOnly}>
          <DecimalInput
            label="Referral bonus (₹)"
            description="Paid once when a member reaches 10 active direct referrals; 0 turns it off"
            {...form.getInputProps('referralBonus')}
          />
          <Select
            label="Monthly reward"
            data={MONTHLY_REWARD_MODES.map((m) => ({ value: m, label: REWARD_MODE_LABELS[m] }))}
            allowDeselect={false}
            {...form.getInputProps('monthlyRewardMode')}
          />
          {target && (
            <>
              <DecimalInput label="Monthly reward target (₹)" description="Team business in the month: membership fees of every member below" {...form.getInputProps('monthlyRewardTarget')} />
              <DecimalInput label="Monthly reward amount (₹)" description="Paid to each member who reaches the target" {...form.getInputProps('monthlyRewardAmount')} />
            </>
          )}
        </FieldGroup>

        {!readOnly && (
          <Group align="flex-end">
            <TextInput
              type="date"
              label="Effective from"
              description={firstSave ? 'Today or later (the first settings may start today)' : 'Tomorrow at the earliest: today\u2019s settings are never edited'}
              min={earliest}
              {...form.getInputProps('effectiveFrom')}
            />
            <Button type="submit" loading={save.isPending}>
              Save
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}

export default function IncomeSettingsPage() {
  const readOnly = !useAuth().permissions.includes('income_settings');
  const settings = useQuery(incomeSettingsQuery());
  const [success, showSuccess] = useSuccessBanner();
  const data = settings.data;
  const shown = data ? (data.scheduled ?? data.current) : null;

  const columns: Column<SettingsVersion>[] = [
    { header: 'Effective from', cell: (v) => v.effectiveFrom },
    {
      header: 'Status',
      cell: (v) =>
        v.versionId === data?.current.versionId ? (
          <StatusBadge tone="positive">In force</StatusBadge>
        ) : isoOf(v.effectiveFrom) > istDay() ? (
          <StatusBadge tone="info">Scheduled</StatusBadge>
        ) : (
          <StatusBadge tone="neutral">Past</StatusBadge>
        ),
    },
    { header: 'Saved by', cell: (v) => v.createdByName ?? 'N/A' },
    { header: 'When', cell: (v) => formatDateTime(v.createdAt) },
  ];

  return (
    <Stack gap="lg">
      <PageTitle
        title="Income Settings"
        subtitle={
          <>
            The compensation plan every run uses. A change is a new version from the day you choose; a run keeps the settings it used.
            {readOnly && ' You can read these settings; changing them needs the income_settings permission.'}
          </>
        }
      />
      <SuccessBanner message={success} />
      <ErrorAlert error={settings.error} prefix="Failed to load income settings: " withIcon onRetry={() => settings.refetch()} />
      {settings.isPending && (
        <Group gap="xs" role="status">
          <Loader size="xs" />
          <Text size="sm" c="dimmed">
            Loading income settings...
          </Text>
        </Group>
      )}
      {data && shown && (
        <>
          <Text size="sm">
            {data.current.versionId === null ? 'In force today: the defaults (never saved).' : `In force since ${data.current.effectiveFrom}.`}
            {data.scheduled && ` The form shows the version scheduled from ${data.scheduled.effectiveFrom}.`}
          </Text>
          <Paper withBorder p="md" radius="md">
            <SettingsForm
              key={`${data.current.versionId}-${data.scheduled?.versionId}-${data.history.length}`}
              shown={shown}
              firstSave={data.history.length === 0}
              readOnly={readOnly}
              onSaved={showSuccess}
            />
          </Paper>
          <Group justify="space-between">
            <Title order={2} size="h4">
              Versions
            </Title>
            <CsvExport endpoint={incomeSettingsApi.versionsCsv} filename="income-settings-versions.csv" disabled={data.history.length === 0} />
          </Group>
          <DataTable
            caption="Income settings versions"
            columns={columns}
            rows={data.history}
            rowKey={(v) => v.versionId ?? 0}
            empty={<Text fw={500}>Never saved: the defaults are in force</Text>}
          />
        </>
      )}
    </Stack>
  );
}
