import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Modal, SimpleGrid, Stack, TextInput } from '@mantine/core';
import type { User } from '../../../contract/users';
import { ApiError, errorMessage } from '../../lib/api-client';
import { useCreateUser, useUpdateUser } from './users.api';

const REQUIRED = 'Please fill in all required fields (Full Name, Date of Birth, Email, Phone)';

interface FormValues {
  fullName: string;
  dob: string;
  email: string;
  phone: string;
  whatsapp: string;
  image: string;
  referralCode: string;
}

const fromUser = (u: User | null): FormValues => ({
  fullName: u?.fullName ?? '',
  dob: u?.dob ?? '',
  email: u?.email ?? '',
  phone: u?.phone ?? '',
  whatsapp: u?.whatsapp ?? '',
  image: u?.image ?? '',
  referralCode: '',
});

interface UserFormModalProps {
  opened: boolean;
  /** The member being edited, or null to add one. */
  user: User | null;
  onClose: () => void;
  onSaved: (message: string, user: User) => void;
}

/** Add/Edit user (spec §2, §5). Mounted per open so it starts from the member's current values. */
export function UserFormModal({ opened, user, onClose, onSaved }: UserFormModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={user ? 'Edit User' : 'Add User'} size="lg" centered>
      {opened && <UserForm user={user} onCancel={onClose} onSaved={onSaved} />}
    </Modal>
  );
}

function UserForm({ user, onCancel, onSaved }: { user: User | null; onCancel: () => void; onSaved: (message: string, user: User) => void }) {
  const [values, setValues] = useState<FormValues>(() => fromUser(user));
  const [error, setError] = useState<string | null>(null);
  const create = useCreateUser();
  const update = useUpdateUser();
  const saving = create.isPending || update.isPending;
  const set = (key: keyof FormValues) => (e: { currentTarget: { value: string } }) => {
    const value = e.currentTarget.value;
    setValues((v) => ({ ...v, [key]: value }));
  };

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setError(null);
    const v = { ...values, fullName: values.fullName.trim(), email: values.email.trim(), phone: values.phone.trim() };
    if (!v.fullName || !v.dob || !v.email || !v.phone) {
      setError(REQUIRED);
      return;
    }
    try {
      if (user) {
        const updated = await update.mutateAsync({
          userId: user.userId,
          body: { fullName: v.fullName, dob: v.dob, email: v.email, phone: v.phone, whatsapp: v.whatsapp.trim(), image: v.image.trim() },
        });
        onSaved('User updated successfully', updated);
      } else {
        const created = await create.mutateAsync({
          fullName: v.fullName, dob: v.dob, email: v.email, phone: v.phone,
          whatsapp: v.whatsapp.trim(), image: v.image.trim(), referralCode: v.referralCode.trim(),
        });
        onSaved('User created successfully', created);
      }
    } catch (err) {
      setError(errorMessage(err, err instanceof ApiError ? 'Failed to save user' : err instanceof Error ? err.message : 'An unexpected error occurred'));
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="Full Name" withAsterisk value={values.fullName} onChange={set('fullName')} data-autofocus maxLength={100} />
          <TextInput label="Date of Birth" withAsterisk type="date" value={values.dob} onChange={set('dob')} />
          <TextInput label="Email Address" withAsterisk type="email" value={values.email} onChange={set('email')} maxLength={254} />
          <TextInput label="Phone Number" withAsterisk type="tel" value={values.phone} onChange={set('phone')} maxLength={14} />
          <TextInput label="WhatsApp Number" description="Optional" type="tel" value={values.whatsapp} onChange={set('whatsapp')} maxLength={14} />
          <TextInput label="Profile Image URL" description="Optional" type="url" value={values.image} onChange={set('image')} maxLength={500} />
        </SimpleGrid>
        {user ? (
          <TextInput
            label="Referral Code"
            value={user.referrerName ? `${user.referrerName} (ID: ${user.referredBy})` : 'Direct'}
            description="The referrer is set at registration and can't be changed."
            readOnly
            disabled
          />
        ) : (
          <TextInput
            label="Referral Code"
            description="Optional: the referrer's code or user ID. Leave blank for a direct registration."
            value={values.referralCode}
            onChange={set('referralCode')}
            maxLength={30}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" disabled={saving}>
            {saving ? 'Saving...' : 'Save User'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
