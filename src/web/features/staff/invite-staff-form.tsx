import { useState, type FormEvent } from 'react';
import { Text } from '@mantine/core';
import { errorMessage } from '../../lib/api-client';
import { serverFieldErrors, type FieldErrors } from '../../lib/api-client';
import { FormModal } from '../../components/form-modal';
import { checkDetails, DetailsFields } from './staff-details';
import { StaffRoleSelect } from './staff-role-select';
import { useInviteStaff } from './staff.api';

interface InviteStaffFormProps {
  onClose: () => void;
  onInvited: (message: string) => void;
}

/** Name, email and role; the invitee gets a single-use link to choose a password. */
export function InviteStaffForm({ onClose, onInvited }: InviteStaffFormProps) {
  const [fullName, setFullName] = useState('');
  const [email, setEmail] = useState('');
  const [roleId, setRoleId] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string | null>(null);
  const invite = useInviteStaff();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (invite.isPending) return;
    const found = checkDetails(fullName, email);
    if (!roleId) found.roleId = 'Please select a role';
    setErrors(found);
    setError(null);
    if (Object.keys(found).length > 0) return;
    invite.mutate(
      { fullName: fullName.trim(), email: email.trim(), roleId: Number(roleId) },
      {
        onSuccess: (res) => onInvited(res.message),
        onError: (err) => {
          setErrors(serverFieldErrors(err));
          setError(errorMessage(err, 'Failed to send the invitation'));
        },
      },
    );
  };

  return (
    <FormModal
      title="Invite staff"
      error={error}
      busy={invite.isPending}
      submitLabel="Send invitation"
      onClose={onClose}
      onSubmit={submit}
    >
      <Text size="sm" c="dimmed">
        They receive an email with a link to choose their password. The link works once, for 72 hours.
      </Text>
      <DetailsFields fullName={fullName} email={email} onFullName={setFullName} onEmail={setEmail} errors={errors} autoComplete="off" />
      <StaffRoleSelect value={roleId} onChange={setRoleId} error={errors.roleId} />
    </FormModal>
  );
}
