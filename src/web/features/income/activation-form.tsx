import { useState } from 'react';
import { Button, Group, Radio, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { activationBody, PAYMENT_SOURCES, type ActivationBody, type Plan } from '../../../contract/income';
import { FormModal } from '../../components/form-modal';
import { MemberPicker } from '../../components/member-picker';
import { useContractForm } from '../../components/use-contract-form';
import { errorMessage } from '../../lib/api-client';
import { formatINR } from '../../lib/format';
import { outcomeOf, useIdempotencyKey, type MoneyOutcome } from '../../lib/money-request';
import { useAuth } from '../auth/auth-context';
import { activePlansQuery, useActivateMembership } from './activation.queries';

interface ActivationFormProps {
  /** Opened from a member's page: that member, already picked. */
  userId?: number;
  onClose: () => void;
  /** Done (201) or filed for a second operator's approval (202). */
  onDone: (outcome: MoneyOutcome) => void;
}

type PaidVia = ActivationBody['paidVia'];

/** A plan as the operator chooses it: its name, price and what it pays per day. */
const planLabel = (p: Plan) =>
  p.current ? `${p.current.name} · ${formatINR(p.current.price)} · ${formatINR(p.current.dailyAmount)} per day` : `Plan ${p.planId}`;

/**
 * 'Activate Membership': a member, a plan on sale today, and how the fee is paid. From the
 * wallet the fee is debited now; paid outside (method and reference) it is recorded, and above
 * the approval threshold it waits for a second operator.
 */
export function ActivationForm({ userId, onClose, onDone }: ActivationFormProps) {
  const activate = useActivateMembership();
  const plans = useQuery(activePlansQuery());
  const keys = useIdempotencyKey();
  const { form, error, submit } = useContractForm({
    initialValues: {
      userId: userId ? String(userId) : (null as string | null),
      planId: null as string | null,
      paidVia: 'wallet' as PaidVia,
      method: '',
      reference: '',
    },
    schema: activationBody,
    toBody: (v): ActivationBody => ({
      userId: v.userId ? Number(v.userId) : (undefined as unknown as number),
      planId: v.planId ? Number(v.planId) : (undefined as unknown as number),
      paidVia: v.paidVia,
      ...(v.paidVia === 'outside' ? { method: v.method.trim() || undefined, reference: v.reference.trim() || undefined } : {}),
    }),
    required: { fields: ['userId', 'planId'], message: 'Please select a member and a plan' },
  });
  const outside = form.values.paidVia === 'outside';
  const noPlans = plans.isSuccess && plans.data.length === 0;

  return (
    <FormModal
      title="Activate Membership"
      onClose={onClose}
      onSubmit={submit(async (body) => {
        try {
          onDone(outcomeOf(await activate.mutateAsync({ body, idempotencyKey: keys.keyFor(body) })));
        } catch (err) {
          keys.settle(err);
          throw err;
        }
      })}
      error={error}
      busy={activate.isPending}
      submitLabel="Activate"
    >
      <MemberPicker
        label="Member"
        placeholder="Search a member by name, email, phone or ID"
        withAsterisk
        data-autofocus={userId ? undefined : true}
        openOnFocus={false}
        {...form.getInputProps('userId')}
        value={form.values.userId}
        onChange={(value) => form.setFieldValue('userId', value)}
      />
      <Select
        label="Plan"
        withAsterisk
        placeholder={plans.isPending ? 'Loading plans…' : noPlans ? 'No plan is on sale' : 'Choose a plan'}
        data={(plans.data ?? []).map((p) => ({ value: String(p.planId), label: planLabel(p) }))}
        disabled={plans.isPending || noPlans}
        {...form.getInputProps('planId')}
      />
      {plans.isError && (
        <Text size="sm" c="red" role="alert">
          {errorMessage(plans.error, 'Failed to load the plans. Please try again.')}
        </Text>
      )}
      <Radio.Group label="Paid via" withAsterisk {...form.getInputProps('paidVia')}>
        <Stack gap={6} mt={6}>
          {PAYMENT_SOURCES.map((s) => (
            <Radio key={s.value} value={s.value} label={s.label} />
          ))}
        </Stack>
      </Radio.Group>
      {outside && (
        <Group grow align="flex-start">
          <TextInput label="Method" withAsterisk placeholder="UPI, cash, bank transfer" maxLength={40} {...form.getInputProps('method')} />
          <TextInput label="Reference" withAsterisk placeholder="UTR or receipt number" maxLength={80} {...form.getInputProps('reference')} />
        </Group>
      )}
      {outside && (
        <Text size="sm" c="dimmed">
          A payment made outside brings no money into the wallet: above the approval threshold a second operator must approve it.
        </Text>
      )}
    </FormModal>
  );
}

/**
 * The 'Activate Membership' button and its form, for accounts with membership_manage only (none
 * for the others). The page shows the outcome: a success, or a request awaiting approval.
 */
export function ActivateMembershipButton({ userId, onDone }: { userId?: number; onDone: (outcome: MoneyOutcome) => void }) {
  const [open, setOpen] = useState(false);
  if (!useAuth().permissions.includes('membership_manage')) return null;
  return (
    <>
      <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setOpen(true)}>
        Activate Membership
      </Button>
      {open && (
        <ActivationForm
          userId={userId}
          onClose={() => setOpen(false)}
          onDone={(outcome) => {
            setOpen(false);
            onDone(outcome);
          }}
        />
      )}
    </>
  );
}
