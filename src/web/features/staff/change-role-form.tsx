import { useState, type FormEvent } from 'react';
import { Text } from '@mantine/core';
import type { StaffMember } from '../../../contract/staff';
import { errorMessage } from '../../lib/api-client';
import { FormModal } from '../../components/form-modal';
import { StaffRoleSelect } from './staff-role-select';
import { useChangeStaffRole } from './staff.api';

interface ChangeRoleFormProps {
  member: StaffMember;
  onClose: () => void;
  onSaved: (message: string) => void;
}

export function ChangeRoleForm({ member, onClose, onSaved }: ChangeRoleFormProps) {
  const [roleId, setRoleId] = useState<string | null>(member.roleId === null ? null : String(member.roleId));
  const [error, setError] = useState<string | null>(null);
  const change = useChangeStaffRole();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (change.isPending) return;
    if (!roleId) {
      setError('Please select a role');
      return;
    }
    setError(null);
    change.mutate(
      { userId: member.userId, roleId: Number(roleId) },
      { onSuccess: (res) => onSaved(res.message), onError: (err) => setError(errorMessage(err, 'Failed to change the role')) },
    );
  };

  return (
    <FormModal
      title={`Change role of ${member.fullName}`}
      error={error}
      busy={change.isPending}
      submitLabel="Change role"
      onClose={onClose}
      onSubmit={submit}
    >
      <Text size="sm" c="dimmed">
        Current role: {member.role ?? 'none'}. The new role applies to their very next request.
      </Text>
      <StaffRoleSelect value={roleId} onChange={setRoleId} />
    </FormModal>
  );
}
