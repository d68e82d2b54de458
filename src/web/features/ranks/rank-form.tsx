import { Checkbox, Fieldset, SimpleGrid, Text, TextInput } from '@mantine/core';
import { rankBody, type RankBody } from '../../../contract/ranks';
import { FormModal } from '../../components/form-modal';
import { useContractForm } from '../../components/use-contract-form';
import { useAuth } from '../auth/auth-context';
import { useSaveRank, type RankRow } from './ranks.api';

interface RankFormProps {
  /** null: a new rank. */
  rank: RankRow | null;
  onClose: () => void;
  onSaved: (message: string) => void;
}

/** The typed text as a number for the contract to check, never rewritten: plain digits, else NaN. */
function numberOf(text: string): number {
  const t = text.trim();
  return /^[0-9]+(\.[0-9]+)?$/.test(t) ? Number(t) : Number.NaN;
}

const CRITERIA = ['position', 'royaltyWeight', 'minDirect', 'minTeam', 'minBusiness', 'monthlyReward'] as const;

export function RankForm({ rank, onClose, onSaved }: RankFormProps) {
  const save = useSaveRank();
  // The criteria feed the income engine: setting them needs income_settings (the server checks it too).
  const canSetCriteria = useAuth().permissions.includes('income_settings');
  const { form, error, submit } = useContractForm({
    initialValues: {
      name: rank?.name ?? '',
      status: rank?.status ?? true,
      ...(Object.fromEntries(CRITERIA.map((key) => [key, String(rank?.[key] ?? 0)])) as Record<(typeof CRITERIA)[number], string>),
    },
    schema: rankBody,
    toBody: (v): RankBody => ({
      name: v.name.trim(),
      status: v.status,
      // Without the permission the criteria are left out, and an update keeps them.
      ...(canSetCriteria ? Object.fromEntries(CRITERIA.map((key) => [key, numberOf(v[key])])) : {}),
    }),
    failure: (err) => `Failed to save rank: ${err instanceof Error ? err.message : 'An unexpected error occurred'}`,
  });
  const field = (key: (typeof CRITERIA)[number]) => ({ autoComplete: 'off', disabled: !canSetCriteria, ...form.getInputProps(key) });
  return (
    <FormModal
      title={rank ? 'Edit Rank' : 'Add Rank'}
      onClose={onClose}
      onSubmit={submit(async (body) => onSaved((await save.mutateAsync({ rankId: rank?.rankId ?? null, body })).message))}
      error={error}
      busy={save.isPending}
      submitLabel={rank ? 'Update' : 'Create'}
      size="lg"
    >
      <TextInput label="Rank Name" withAsterisk data-autofocus {...form.getInputProps('name')} />
      <Checkbox label="Active" {...form.getInputProps('status', { type: 'checkbox' })} />
      <Fieldset legend="Income engine" disabled={!canSetCriteria}>
        <Text size="sm" c="dimmed" mb="xs">
          {canSetCriteria
            ? 'A member is promoted to the highest-position active rank whose criteria they meet (never demoted). A rank with all three criteria at 0 is given by hand only.'
            : 'Setting the ladder and criteria needs the income_settings permission.'}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="Position" description="Higher is senior" inputMode="numeric" {...field('position')} />
          <TextInput label="Royalty weight" description="Share of the royalty pool; 0: none" inputMode="numeric" {...field('royaltyWeight')} />
          <TextInput label="Min. direct referrals" description="Active members they referred" inputMode="numeric" {...field('minDirect')} />
          <TextInput label="Min. team size" description="Members below them, all levels" inputMode="numeric" {...field('minTeam')} />
          <TextInput label="Min. team business (₹)" description="Membership fees of their team" inputMode="decimal" {...field('minBusiness')} />
          <TextInput label="Monthly reward (₹)" description="Paid monthly when rewards are by rank" inputMode="decimal" {...field('monthlyReward')} />
        </SimpleGrid>
      </Fieldset>
    </FormModal>
  );
}
