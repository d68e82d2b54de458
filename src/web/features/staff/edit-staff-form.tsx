import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import type { StaffMember } from '../../../contract/staff';
import { errorMessage } from '../../lib/api-client';
import { fieldErrorsOf, type FieldErrors } from './staff-form-errors';
import { useUpdateStaff } from './staff.api';
import { looksLikeEmail } from '../../lib/email';

interface EditStaffFormProps {
  member: StaffMember;
  onClose: () => void;
  onSaved: (message: string) => void;
}


/** The sign-in email is changed here (or by the account itself), never on the member screens. */
export function EditStaffForm({ member, onClose, onSaved }: EditStaffFormProps) {
  const [fullName, setFullName] = useState(member.fullName);
  const [email, setEmail] = useState(member.email);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateStaff();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (update.isPending) return;
    const found: FieldErrors = {};
    if (!fullName.trim()) found.fullName = 'Full name is required';
    if (!looksLikeEmail(email)) found.email = 'Enter a valid email address';
    setErrors(found);
    setError(null);
    if (Object.keys(found).length > 0) return;
    update.mutate(
      { userId: member.userId, body: { fullName: fullName.trim(), email: email.trim() } },
      {
        onSuccess: (res) => onSaved(res.message),
        onError: (err) => {
          setErrors(fieldErrorsOf(err));
          setError(errorMessage(err, 'Failed to save the staff member'));
        },
      },
    );
  };

  return (
    <Modal opened onClose={onClose} title={`Edit ${member.fullName}`} centered>
      <form onSubmit={submit} noValidate aria-label={`Edit ${member.fullName}`}>
        <Stack gap="md">
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          <TextInput label="Full name" value={fullName} onChange={(e) => setFullName(e.currentTarget.value)} error={errors.fullName} withAsterisk data-autofocus />
          <TextInput
            label="Email"
            type="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={errors.email}
            withAsterisk
            description="Links already mailed to the old address stop working."
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={update.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={update.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
