import { Select, Textarea, TextInput } from '@mantine/core';
import { normalizePermissionName, permissionBody } from '../../../contract/access';
import { PERMISSION_MODULES, type PermissionModule } from '../../../contract/permissions';
import { messageOf } from '../../components/error-alert';
import { RecordFormModal, type RecordFormProps } from '../../components/form-modal';
import { useContractForm } from '../../components/use-contract-form';
import { useSavePermission, type PermissionRow } from './permissions.api';

export function PermissionForm(record: RecordFormProps<PermissionRow>) {
  const { editing } = record;
  const save = useSavePermission();
  const { form, error, submit } = useContractForm({
    initialValues: { module: (editing?.module ?? null) as string | null, name: editing?.name ?? '', description: editing?.description ?? '' },
    schema: permissionBody,
    // Spec §5: the name is sent lowercased, with whitespace runs as underscores and only a-z, 0-9 and _.
    toBody: (v) => ({ module: v.module as PermissionModule, name: normalizePermissionName(v.name), description: v.description.trim() }),
    // Spec §5: a blank field (a name with nothing left once formatted is blank) gives one message.
    required: { fields: ['module', 'name', 'description'], message: 'Please fill in all fields' },
    failure: (err) => messageOf(err, 'Failed to save permission'),
  });
  const formatted = normalizePermissionName(form.values.name);
  return (
    <RecordFormModal noun="Permission" {...record} submit={submit} error={error} busy={save.isPending}
      save={(body) => save.mutateAsync({ id: editing?.id ?? null, body })}>
      <Select
        label="Module"
        placeholder="Select a module"
        data={[...PERMISSION_MODULES]}
        withAsterisk
        allowDeselect={false}
        {...form.getInputProps('module')}
      />
      <TextInput
        label="Permission Name"
        description={`Will be formatted as lowercase with underscores${formatted ? `: ${formatted}` : ''}`}
        withAsterisk
        data-autofocus
        {...form.getInputProps('name')}
      />
      <Textarea label="Description" withAsterisk rows={3} {...form.getInputProps('description')} />
    </RecordFormModal>
  );
}
