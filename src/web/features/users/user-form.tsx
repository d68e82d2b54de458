import { Select, SimpleGrid, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { createUserBody, updateUserBody, type User } from '../../../contract/users';
import { messageOf } from '../../components/error-alert';
import { FormModal } from '../../components/form-modal';
import { useContractForm } from '../../components/use-contract-form';
import { ApiError } from '../../lib/api-client';
import { rankOptionsQuery, useCreateUser, useUpdateUser, type ListedUser } from './users.api';

interface UserFormProps {
  /** The member being edited, or null to add one. */
  user: ListedUser | null;
  onClose: () => void;
  onSaved: (message: string, user: User) => void;
}

const trimmed = (v: string) => v.trim();
const NO_RANK = 'none';
const STATUS_OPTIONS = [{ value: 'true', label: 'Active' }, { value: 'false', label: 'Inactive' }];

/** Add/Edit user (spec §2, §5). Mounted per open so it starts from the member's current values. */
export function UserForm({ user, onClose, onSaved }: UserFormProps) {
  const create = useCreateUser();
  const update = useUpdateUser();
  const ranks = useQuery({ ...rankOptionsQuery(), enabled: user !== null });
  // Status and rank are changed on an edit (issue 15 item 9), and sent only when changed.
  const status = user ? String(user.status) : 'true';
  const rank = user?.rankId ? String(user.rankId) : NO_RANK;
  const rankOptions = [{ value: NO_RANK, label: 'No rank' }, ...(ranks.data ?? []).map((r) => ({ value: String(r.rankId), label: r.name }))];
  // A rank no longer offered (inactive) is still the member's and stays shown.
  if (user?.rankId && !rankOptions.some((o) => o.value === rank)) rankOptions.push({ value: rank, label: user.rank ?? `Rank ${rank}` });
  const { form, error, submit } = useContractForm({
    initialValues: {
      fullName: user?.fullName ?? '',
      dob: user?.dob ?? '',
      email: user?.email ?? '',
      phone: user?.phone ?? '',
      whatsapp: user?.whatsapp ?? '',
      image: user?.image ?? '',
      referralCode: '',
      status,
      rankId: rank,
    },
    schema: user ? updateUserBody : createUserBody,
    toBody: (v) => ({
      fullName: trimmed(v.fullName), dob: v.dob, email: trimmed(v.email), phone: trimmed(v.phone),
      whatsapp: trimmed(v.whatsapp), image: trimmed(v.image), referralCode: trimmed(v.referralCode),
      ...(v.status !== status ? { status: v.status === 'true' } : {}),
      ...(v.rankId !== rank ? { rankId: v.rankId === NO_RANK ? null : Number(v.rankId) } : {}),
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
        <TextInput label="Full Name" withAsterisk data-autofocus {...form.getInputProps('fullName')} />
        <TextInput label="Date of Birth" withAsterisk type="date" {...form.getInputProps('dob')} />
        <TextInput label="Email Address" withAsterisk type="email" maxLength={254} {...form.getInputProps('email')} />
        <TextInput label="Phone Number" withAsterisk type="tel" maxLength={14} {...form.getInputProps('phone')} />
        <TextInput label="WhatsApp Number" description="Optional" type="tel" maxLength={14} {...form.getInputProps('whatsapp')} />
        <TextInput label="Profile Image URL" description="Optional" type="url" maxLength={500} {...form.getInputProps('image')} />
      </SimpleGrid>
      {user && (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select label="Status" data={STATUS_OPTIONS} allowDeselect={false} {...form.getInputProps('status')} />
          <Select label="Rank" data={rankOptions} allowDeselect={false} {...form.getInputProps('rankId')} />
        </SimpleGrid>
      )}
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
