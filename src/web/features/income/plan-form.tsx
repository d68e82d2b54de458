import { useIdempotencyKey } from '../../lib/money-request';
import { Checkbox, Select, SimpleGrid, Text, TextInput } from '@mantine/core';
import { isoToWireDate } from '../../../contract/common';
import { DAILY_MODES, planBody, type PlanBody } from '../../../contract/income';
import { FormModal } from '../../components/form-modal';
import { useContractForm } from '../../components/use-contract-form';
import { parseAmountPaise } from '../../lib/amount';
import { formatINR } from '../../lib/format';
import { istDay, useSavePlan, type Plan } from './plans.api';

interface PlanFormProps {
  /** null: a new plan. */
  plan: Plan | null;
  onClose: () => void;
  onSaved: (message: string) => void;
}

/**
 * The typed text as a number for the contract to check, never rewritten: plain digits with an
 * optional decimal part, else NaN (the schema's "must be a number"); blank is left out.
 */
function numberOf(text: string): number | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  return /^[0-9]+(\.[0-9]+)?$/.test(t) ? Number(t) : Number.NaN;
}

/** What a day earns on these terms, as the server computes it: a percent rounds down to the paisa. */
function dailyPreview(priceText: string, mode: string, valueText: string): string | null {
  const price = parseAmountPaise(priceText);
  const value = parseAmountPaise(valueText); // a percent with 2 decimals ×100 = basis points
  if (price === null || value === null || mode !== 'percent') return null;
  return `${formatINR(Math.floor((price * value) / 10_000) / 100)} a day`;
}

/** Add Plan, or Change: a new version of the plan's terms from a day (today or later for a new plan, tomorrow or later for a change). */
export function PlanForm({ plan, onClose, onSaved }: PlanFormProps) {
  const save = useSavePlan();
  const keys = useIdempotencyKey();
  const base = plan ? (plan.scheduled ?? plan.current) : null;
  const { form, error, submit } = useContractForm({
    initialValues: {
      name: base?.name ?? '',
      price: base ? String(base.price) : '',
      dailyMode: base?.dailyMode ?? 'percent',
      dailyValue: base ? String(base.dailyValue) : '',
      durationDays: base ? String(base.durationDays) : '',
      cap: base ? String(base.cap) : '',
      active: base?.active ?? true,
      effectiveFrom: istDay(plan ? 1 : 0),
    },
    schema: planBody,
    toBody: (v): PlanBody => ({
      name: v.name.trim(),
      price: numberOf(v.price) as number,
      dailyMode: v.dailyMode,
      dailyValue: numberOf(v.dailyValue) as number,
      durationDays: numberOf(v.durationDays) as number,
      cap: numberOf(v.cap) as number,
      active: v.active,
      effectiveFrom: v.effectiveFrom ? isoToWireDate(v.effectiveFrom) : undefined,
    }),
  });
  const percent = form.values.dailyMode === 'percent';
  const preview = dailyPreview(form.values.price, form.values.dailyMode, form.values.dailyValue);
  const title = plan ? `Change ${base?.name ?? 'Plan'}` : 'Add Plan';
  return (
    <FormModal
      title={title}
      onClose={onClose}
      onSubmit={submit(async (body) => {
        // A plan is a lever that makes money (issue 22): filed for a second operator, the answer says so.
        const request = { planId: plan?.planId ?? null, body };
        try {
          onSaved((await save.mutateAsync({ ...request, idempotencyKey: keys.keyFor(request) })).message);
        } catch (err) {
          keys.settle(err);
          throw err;
        }
      })}
      error={error}
      busy={save.isPending}
      submitLabel={plan ? 'Save Change' : 'Create'}
      size="lg"
    >
      <TextInput label="Plan Name" withAsterisk data-autofocus {...form.getInputProps('name')} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Price (₹)" withAsterisk inputMode="decimal" autoComplete="off" {...form.getInputProps('price')} />
        <TextInput
          label="Total payout cap (₹)"
          description="The most a membership earns in daily payouts, e.g. 2× the price"
          withAsterisk
          inputMode="decimal"
          autoComplete="off"
          {...form.getInputProps('cap')}
        />
        <Select
          label="Daily payout type"
          data={DAILY_MODES.map((m) => ({ value: m.value, label: m.label }))}
          allowDeselect={false}
          {...form.getInputProps('dailyMode')}
        />
        <TextInput
          label={percent ? 'Daily payout (% of the price)' : 'Daily payout (₹ per day)'}
          description={percent ? (preview ?? 'Rounded down to the paisa') : 'Paid each business day'}
          withAsterisk
          inputMode="decimal"
          autoComplete="off"
          {...form.getInputProps('dailyValue')}
        />
        <TextInput label="Duration (days)" withAsterisk inputMode="numeric" autoComplete="off" {...form.getInputProps('durationDays')} />
        <TextInput
          type="date"
          label="Effective from"
          description={plan ? 'Tomorrow at the earliest: today\u2019s terms are never edited' : 'Today or later'}
          min={istDay(plan ? 1 : 0)}
          {...form.getInputProps('effectiveFrom')}
        />
      </SimpleGrid>
      <Checkbox label="Active (can be sold)" {...form.getInputProps('active', { type: 'checkbox' })} />
      {plan && (
        <Text size="sm" c="dimmed">
          Memberships already sold keep the terms they were sold with. A new name shows at once on every version.
          {plan.scheduled && ` A change is already scheduled from ${plan.scheduled.effectiveFrom}; saving for that day again replaces it.`}
        </Text>
      )}
    </FormModal>
  );
}
