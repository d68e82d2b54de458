import { Checkbox, NumberInput, TextInput } from '@mantine/core';
import { createRolePermissionBody, updateRolePermissionBody } from '../../../contract/access';
import { FormModal } from '../../components/form-modal';
import { useContractForm } from '../../components/use-contract-form';
import { failureMessage, useUpdateRolePermission, type NewRolePermission, type RolePermissionRow } from './role-permissions.api';

interface RolePermissionFormProps {
  editing: RolePermissionRow | null;
  onClose: () => void;
  onSaved: (message: string) => void;
  /** Creation is optimistic and outlives this modal, so the page runs it. */
  onCreate: (body: NewRolePermission) => void;
}

/** Spec §5: comma-separated numbers; non-numeric items are dropped. */
export function parsePermissionIds(text: string): number[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => /^\d+$/.test(part))
    .map(Number)
    .filter((n) => n > 0);
}

export function RolePermissionForm({ editing, onClose, onSaved, onCreate }: RolePermissionFormProps) {
  const update = useUpdateRolePermission();
  const { form, error, submit } = useContractForm({
    initialValues: {
      roleId: (editing?.roleId ?? '') as number | string,
      roleName: editing?.roleName ?? '',
      permissionName: editing?.permissionName ?? '',
      idsText: editing?.permissionIds.join(', ') ?? '',
      status: editing?.status ?? true,
    },
    schema: editing ? updateRolePermissionBody : createRolePermissionBody,
    toBody: (v) => ({
      roleId: Number.isInteger(v.roleId) && Number(v.roleId) > 0 ? Number(v.roleId) : undefined,
      roleName: v.roleName.trim() || undefined,
      permissionName: v.permissionName.trim() || undefined,
      permissionIds: parsePermissionIds(v.idsText),
      status: v.status,
    }),
    // Spec §5: a missing role id or no valid permission id gives one message.
    required: { fields: ['roleId', 'permissionIds'], message: 'Please fill in all fields' },
    failure: (err) => failureMessage(err, 'Failed to update role permission'),
  });

  const title = editing ? 'Edit Role Permission' : 'Add Role Permission';
  return (
    <FormModal
      title={title}
      onClose={onClose}
      onSubmit={submit(async ({ roleId, ...fields }) => {
        if (!editing) return onCreate({ roleId: roleId!, ...fields });
        const answer = await update.mutateAsync({ roleId: roleId!, body: fields });
        onSaved(answer?.message ?? 'Role permission updated successfully');
      })}
      error={error}
      busy={update.isPending}
      submitLabel={editing ? 'Update' : 'Create'}
    >
      <NumberInput
        label="Role ID"
        allowDecimal={false}
        allowNegative={false}
        disabled={editing !== null}
        withAsterisk
        data-autofocus
        {...form.getInputProps('roleId')}
      />
      <TextInput label="Role Name" {...form.getInputProps('roleName')} />
      <TextInput label="Permission Name" placeholder="Permission Group" {...form.getInputProps('permissionName')} />
      <TextInput
        label="Permission IDs"
        description="Comma-separated numbers, e.g. 1, 2, 3"
        withAsterisk
        {...form.getInputProps('idsText')}
      />
      <Checkbox label="Active" {...form.getInputProps('status', { type: 'checkbox' })} />
    </FormModal>
  );
}
