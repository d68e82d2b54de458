import { Checkbox, Switch, TextInput } from '@mantine/core';
import { roleBody } from '../../../contract/access';
import { RecordFormModal, type RecordFormProps } from '../../components/form-modal';
import { messageOf } from '../../components/error-alert';
import { useContractForm } from '../../components/use-contract-form';
import { useSaveRole, type RoleRow } from './roles.api';

export function RoleForm(record: RecordFormProps<RoleRow>) {
  const { editing } = record;
  const save = useSaveRole();
  const { form, error, submit } = useContractForm({
    initialValues: { name: editing?.name ?? '', status: editing?.status ?? true, twoFactorRequired: editing?.twoFactorRequired ?? false },
    schema: roleBody,
    toBody: (v) => ({ ...v, name: v.name.trim() }),
    failure: (err) => messageOf(err, 'Failed to save role'),
  });
  return (
    <RecordFormModal noun="Role" {...record} submit={submit} error={error} busy={save.isPending}
      save={(body) => save.mutateAsync({ id: editing?.id ?? null, body })}>
      <TextInput label="Role Name" withAsterisk data-autofocus {...form.getInputProps('name')} />
      <Checkbox label="Active" {...form.getInputProps('status', { type: 'checkbox' })} />
      <Switch
        label="Two-factor required"
        description="Accounts of this role must sign in with a code from an authenticator app; those not enrolled yet set it up right after their password."
        {...form.getInputProps('twoFactorRequired', { type: 'checkbox' })}
      />
    </RecordFormModal>
  );
}
