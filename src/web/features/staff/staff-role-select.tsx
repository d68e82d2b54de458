import { Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { staffRolesQuery } from './staff.api';

interface StaffRoleSelectProps {
  value: string | null;
  onChange: (roleId: string | null) => void;
  error?: string;
}

/** The roles this screen may assign, marked when they require two-factor sign-in. */
export function StaffRoleSelect({ value, onChange, error }: StaffRoleSelectProps) {
  const roles = useQuery(staffRolesQuery());
  const data = (roles.data ?? []).map((r) => ({
    value: String(r.roleId),
    label: r.twoFactorRequired ? `${r.name} (two-factor required)` : r.name,
  }));
  return (
    <Select
      label="Role"
      placeholder={roles.isPending ? 'Loading roles...' : 'Select a role'}
      data={data}
      value={value}
      onChange={onChange}
      withAsterisk
      searchable
      nothingFoundMessage="No matching role"
      error={error ?? (roles.isError ? `Failed to load roles: ${roles.error.message}` : undefined)}
      disabled={roles.isPending}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
