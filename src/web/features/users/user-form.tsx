import { SimpleGrid, TextInput } from '@mantine/core';
import { createUserBody, updateUserBody, type User } from '../../../contract/users';
import { messageOf } from '../../components/error-alert';
import { FormModal } from '../../components/form-modal';
import { useContractForm } from '../../components/use-contract-form';
import { ApiError } from '../../lib/api-client';
import { useCreateUser, useUpdateUser } from './users.api';

interface UserFormProps {
  /** The member being edited, or null to add one. */
  user: User | null;
  onClose: () => void;
  onSaved: (message: string, user: User) => void;
}

const trimmed = (v: string) => v.trim();

/** Add/Edit user (spec §2, §5). Mounted per open so it starts from the member's current values. */
export function UserForm({ user, onClose, onSaved }: UserFormProps) {
  const create = useCreateUser();
  const update = useUpdateUser();
  const { form, error, submit } = useContractForm({
    initialValues: {
      fullName: user?.fullName ?? '',
      dob: user?.dob ?? '',
      email: user?.email ?? '',
      phone: user?.phone ?? '',
      whatsapp: user?.whatsapp ?? '',
      image: user?.image ?? '',
      referralCode: '',
    },
    schema: user ? updateUserBody : createUserBody,
    toBody: (v) => ({
      fullName: trimmed(v.fullName), dob: v.dob, email: trimmed(v.email), phone: trimmed(v.phone),
      whatsapp: trimmed(v.whatsapp), image: trimmed(v.image), referralCode: trimmed(v.referralCode),
    }),
    // Spec §5: the four required fields share one message.
    required: { fields: ['fullName', 'dob', 'email', 'phone'], message: 'Please fill in all required fields (Full Name, Date of Birth, Email, Phone)' },
    changedOnly: user !== null,
    failure: (err) => messageOf(err, err instanceof ApiError ? 'Failed to save user' : undefined),
  });

  return (
    <FormModal
      title={user ? 'Edit User' : 'Add User'}
      size="lg"
      onClose={onClose}
      onSubmit={submit(async ({ referralCode, ...body }) => {
        if (user) onSaved('User updated successfully', await update.mutateAsync({ userId: user.userId, body }));
        else onSaved('User created successfully', await create.mutateAsync({ ...body, referralCode }));
      })}
      error={error}
      busy={create.isPending || update.isPending}
      submitLabel="Save User"
      busyLabel="Saving..."
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Full Name" withAsterisk data-autofocus maxLength={100} {...form.getInputProps('fullName')} />
        <TextInput label="Date of Birth" withAsterisk type="date" {...form.getInputProps('dob')} />
        <TextInput label="Email Address" withAsterisk type="email" maxLength={254} {...form.getInputProps('email')} />
        <TextInput label="Phone Number" withAsterisk type="tel" maxLength={14} {...form.getInputProps('phone')} />
        <TextInput label="WhatsApp Number" description="Optional" type="tel" maxLength={14} {...form.getInputProps('whatsapp')} />
        <TextInput label="Profile Image URL" description="Optional" type="url" maxLength={500} {...form.getInputProps('image')} />
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
          maxLength={30}
          {...form.getInputProps('referralCode')}
        />
      )}
    </FormModal>
  );
}
