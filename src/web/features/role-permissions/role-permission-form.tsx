import { useQuery } from '@tanstack/react-query';
import { Checkbox, Group, MultiSelect, NumberInput, Select, Text, TextInput, type ComboboxItem, type ComboboxItemGroup } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { PERMISSION_MODULES } from '../../../contract/permissions';
import { createRolePermissionBody, updateRolePermissionBody } from '../../../contract/access';
import { FormModal } from '../../components/form-modal';
import { useContractForm } from '../../components/use-contract-form';
import { rolesQuery } from '../roles/roles.api';
import {
  failureMessage, useCreateRolePermission, usePermissionCatalogue, useUpdateRolePermission, type PermissionCatalogue, type RolePermissionRow,
} from './role-permissions.api';

interface RolePermissionFormProps {
  editing: RolePermissionRow | null;
  onClose: () => void;
  onSaved: (message: string) => void;
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

/**
 * The catalogue as the picker's options (issue 24): grouped by module in the spec's order, each
 * labelled by its name (the search matches it) with its id beside it; an id of the role's set that
 * the catalogue lacks stays choosable under "Unknown".
 */
export function permissionOptions(catalogue: PermissionCatalogue, chosen: readonly string[]): ComboboxItemGroup<ComboboxItem>[] {
  const all = [...catalogue.values()];
  const modules = [...PERMISSION_MODULES, ...new Set(all.map((p) => p.module).filter((m) => !(PERMISSION_MODULES as readonly string[]).includes(m)))];
  const groups = modules.map((module) => ({
    group: module,
    items: all.filter((p) => p.module === module).sort((a, b) => a.name.localeCompare(b.name)).map((p) => ({ value: String(p.id), label: p.name })),
  }));
  const unknown = chosen.filter((id) => !catalogue.has(Number(id))).map((id) => ({ value: id, label: `Permission ${id}` }));
  return [...groups, { group: 'Unknown', items: unknown }].filter((g) => g.items.length > 0);
}

/**
 * A record belongs to a role, and its Role Name is that role's name (decisions: `roleName` always
 * comes from the role). So Role Name is not free text: it picks a role (and fills Role ID), and a
 * typed Role ID shows its role's name. Creating keeps the dialog open until the server answers,
 * while the temporary row shows in the list (spec §4); a refusal removes that row and leaves the
 * dialog open with what was typed and the message.
 */
export function RolePermissionForm({ editing, onClose, onSaved }: RolePermissionFormProps) {
  const create = useCreateRolePermission();
  const update = useUpdateRolePermission();
  // The same permission (roles_view) as this screen's list.
  const roles = useQuery(rolesQuery());
  const options = (roles.data ?? []).flatMap((r) => (r.id === null ? [] : [{ value: String(r.id), label: r.name }]));
  const nameOf = (roleId: unknown) => options.find((o) => o.value === String(roleId))?.label;
  // Names, not numbers (issue 24): with the catalogue, permissions are picked by name; without
  // it (no permissions_view, or it failed to load) they are typed as ids, as in the spec.
  const catalogue = usePermissionCatalogue();

  const { form, error, submit } = useContractForm({
    initialValues: {
      roleId: (editing?.roleId ?? '') as number | string,
      permissionName: editing?.permissionName ?? '',
      idsText: editing?.permissionIds.join(', ') ?? '',
      picked: editing?.permissionIds.map(String) ?? ([] as string[]),
      status: editing?.status ?? true,
    },
    schema: editing ? updateRolePermissionBody : createRolePermissionBody,
    toBody: (v) => ({
      roleId: Number.isInteger(v.roleId) && Number(v.roleId) > 0 ? Number(v.roleId) : undefined,
      roleName: nameOf(v.roleId) ?? editing?.roleName,
      permissionName: v.permissionName.trim() || undefined,
      permissionIds: catalogue ? v.picked.map(Number).sort((a, b) => a - b) : parsePermissionIds(v.idsText),
      status: v.status,
    }),
    // Spec §5: a missing role id or no valid permission id gives one message.
    required: { fields: ['roleId', 'permissionIds'], message: 'Please fill in all fields' },
    failure: (err) => failureMessage(err, editing ? 'Failed to update role permission' : 'Failed to create role permission'),
  });

  const typedRole = form.values.roleId;
  const roleName = nameOf(typedRole);
  const title = editing ? 'Edit Role Permission' : 'Add Role Permission';
  return (
    <FormModal
      title={title}
      onClose={onClose}
      onSubmit={submit(async ({ roleId, ...fields }) => {
        const answer = editing
          ? await update.mutateAsync({ roleId: roleId!, body: fields })
          : await create.mutateAsync({ roleId: roleId!, ...fields });
        onSaved(answer?.message ?? (editing ? 'Role permission updated successfully' : 'Role permission created successfully'));
      })}
      error={error}
      busy={create.isPending || update.isPending}
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
      {editing ? (
        <TextInput label="Role Name" value={editing.roleName} disabled />
      ) : (
        <Select
          label="Role Name"
          description={
            typedRole !== '' && !roleName && roles.isSuccess ? `No role has ID ${typedRole}` : 'Choose the role, or type its ID above'
          }
          placeholder={roles.isPending ? 'Loading roles...' : 'Choose a role'}
          data={options}
          value={roleName ? String(typedRole) : null}
          onChange={(value) => form.setFieldValue('roleId', value === null ? '' : Number(value))}
          searchable
          clearable
          nothingFoundMessage="No roles found"
        />
      )}
      <TextInput label="Permission Name" placeholder="Permission Group" {...form.getInputProps('permissionName')} />
      {catalogue ? (
        <MultiSelect
          label="Permissions"
          description="Search by name; grouped by module. The role's record keeps their IDs."
          placeholder={form.values.picked.length ? undefined : 'Choose permissions'}
          data={permissionOptions(catalogue, form.values.picked)}
          searchable
          clearable
          hidePickedOptions={false}
          maxDropdownHeight={320}
          nothingFoundMessage="No permissions found"
          withAsterisk
          renderOption={({ option, checked }) => {
            const p = catalogue.get(Number(option.value));
            return (
              <Group gap="xs" wrap="nowrap" justify="space-between" w="100%">
                <IconCheck size={14} aria-hidden style={{ visibility: checked ? 'visible' : 'hidden', flex: 'none' }} />
                <div style={{ flex: 1 }}>
                  <Text size="sm" ff="monospace">{option.label}</Text>
                  {p && <Text size="xs" c="dimmed">{p.description}</Text>}
                </div>
                <Text size="xs" c="dimmed">{`ID ${option.value}`}</Text>
              </Group>
            );
          }}
          value={form.values.picked}
          onChange={(value) => form.setFieldValue('picked', value)}
          error={form.errors.permissionIds}
        />
      ) : (
        <TextInput
          label="Permission IDs"
          description="Comma-separated numbers, e.g. 1, 2, 3"
          withAsterisk
          {...form.getInputProps('idsText')}
        />
      )}
      <Checkbox label="Active" {...form.getInputProps('status', { type: 'checkbox' })} />
    </FormModal>
  );
}
