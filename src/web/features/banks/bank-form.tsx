import { Checkbox, SimpleGrid, TextInput } from '@mantine/core';
import { createBankBody, updateBankBody, type BankAccount } from '../../../contract/banks';
import { FormModal } from '../../components/form-modal';
import { useContractForm } from '../../components/use-contract-form';
import { useCreateBank, useUpdateBank } from './banks.api';

interface BankFormProps {
  userId: number;
  /** The member's name: a new account's holder by default. */
  holder: string;
  /** null: a new account. */
  account: BankAccount | null;
  onClose: () => void;
  /** `awaitingApproval`: a new account number or IFSC, or a new primary, was filed for a second operator (202). */
  onSaved: (message: string, awaitingApproval: boolean) => void;
}

/**
 * Add or edit one of a member's bank accounts. IFSC and account number are checked on their
 * fields by the contract's schemas before anything is sent (the server checks the same), and a
 * refusal (the same account twice) is shown on its field with the form kept open.
 */
export function BankForm({ userId, holder, account, onClose, onSaved }: BankFormProps) {
  const create = useCreateBank();
  const update = useUpdateBank();
  const { form, error, submit } = useContractForm({
    initialValues: {
      accountHolderName: account?.accountHolderName ?? holder,
      accountNumber: account?.accountNumber ?? '',
      ifsc: account?.ifsc ?? '',
      bank: account?.bank ?? '',
      branch: account?.branch ?? '',
      isPrimary: account?.isPrimary ?? false,
    },
    schema: account ? updateBankBody : createBankBody,
    toBody: (v) => ({ ...(account ? {} : { userId }), ...v, isPrimary: v.isPrimary || undefined }),
    // An edit is not blocked by a stored value that predates a rule: the server decides.
    changedOnly: account !== null,
  });
  const busy = create.isPending || update.isPending;
  return (
    <FormModal
      title={account ? 'Edit Bank Account' : 'Add Bank Account'}
      onClose={onClose}
      onSubmit={submit(async (body) => {
        const saved = account ? await update.mutateAsync({ bankId: account.bankId, body }) : await create.mutateAsync({ ...body, userId });
        onSaved(saved.message, 'approvalId' in saved.data);
      })}
      error={error}
      busy={busy}
      submitLabel={account ? 'Update' : 'Add Account'}
      size="lg"
    >
      <TextInput label="Account Holder" withAsterisk data-autofocus {...form.getInputProps('accountHolderName')} />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput
          label="Account Number"
          withAsterisk
          inputMode="numeric"
          autoComplete="off"
          description="9 to 18 digits"
          {...form.getInputProps('accountNumber')}
        />
        <TextInput label="IFSC Code" withAsterisk autoComplete="off" description="e.g. SBIN0001234" {...form.getInputProps('ifsc')} />
        <TextInput label="Bank Name" withAsterisk {...form.getInputProps('bank')} />
        <TextInput label="Branch" {...form.getInputProps('branch')} />
      </SimpleGrid>
      <Checkbox
        label="Primary account"
        description={account?.isPrimary
          ? 'To change the primary account, make another account primary.'
          : 'Payouts go to the primary account: making this one primary waits for a second operator\u2019s approval.'}
        disabled={account?.isPrimary}
        {...form.getInputProps('isPrimary', { type: 'checkbox' })}
      />
    </FormModal>
  );
}
