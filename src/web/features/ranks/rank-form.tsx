import { Checkbox, TextInput } from '@mantine/core';
import { rankBody } from '../../../contract/ranks';
import { FormModal } from '../../components/form-modal';
import { useContractForm } from '../../components/use-contract-form';
import { useSaveRank, type RankRow } from './ranks.api';

interface RankFormProps {
  /** null: a new rank. */
  rank: RankRow | null;
  onClose: () => void;
  onSaved: (message: string) => void;
}

export function RankForm({ rank, onClose, onSaved }: RankFormProps) {
  const save = useSaveRank();
  const { form, error, submit } = useContractForm({
    initialValues: { name: rank?.name ?? '', status: rank?.status ?? true },
    schema: rankBody,
    toBody: (v) => ({ name: v.name.trim(), status: v.status }),
    failure: (err) => `Failed to save rank: ${err instanceof Error ? err.message : 'An unexpected error occurred'}`,
  });
  return (
    <FormModal
      title={rank ? 'Edit Rank' : 'Add Rank'}
      onClose={onClose}
      onSubmit={submit(async (body) => onSaved((await save.mutateAsync({ rankId: rank?.rankId ?? null, body })).message))}
      error={error}
      busy={save.isPending}
      submitLabel={rank ? 'Update' : 'Create'}
    >
      <TextInput label="Rank Name" withAsterisk maxLength={50} data-autofocus {...form.getInputProps('name')} />
      <Checkbox label="Active" {...form.getInputProps('status', { type: 'checkbox' })} />
    </FormModal>
  );
}
