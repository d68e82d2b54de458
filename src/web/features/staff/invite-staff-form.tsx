import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { errorMessage } from '../../lib/api-client';
import { fieldErrorsOf, type FieldErrors } from './staff-form-errors';
import { StaffRoleSelect } from './staff-role-select';
import { useInviteStaff } from './staff.api';
import { looksLikeEmail } from '../../lib/email';

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
    const found: FieldErrors = {};
    if (!fullName.trim()) found.fullName = 'Full name is required';
    if (!looksLikeEmail(email)) found.email = 'Enter a valid email address';
    if (!roleId) found.roleId = 'Please select a role';
    setErrors(found);
    setError(null);
    if (Object.keys(found).length > 0) return;
    invite.mutate(
      { fullName: fullName.trim(), email: email.trim(), roleId: Number(roleId) },
      {
        onSuccess: (res) => onInvited(res.message),
        onError: (err) => {
          setErrors(fieldErrorsOf(err));
          setError(errorMessage(err, 'Failed to send the invitation'));
        },
      },
    );
  };

  return (
    <Modal opened onClose={onClose} title="Invite staff" centered>
      <form onSubmit={submit} noValidate aria-label="Invite staff">
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            They receive an email with a link to choose their password. The link works once, for 72 hours.
          </Text>
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          <TextInput
            label="Full name"
            value={fullName}
            onChange={(e) => setFullName(e.currentTarget.value)}
            error={errors.fullName}
            withAsterisk
            data-autofocus
            autoComplete="off"
          />
          <TextInput
            label="Email"
            type="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={errors.email}
            withAsterisk
            autoComplete="off"
          />
          <StaffRoleSelect value={roleId} onChange={setRoleId} error={errors.roleId} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={invite.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={invite.isPending}>
              Send invitation
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
