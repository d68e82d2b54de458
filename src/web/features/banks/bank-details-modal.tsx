import { Badge, Group, Loader, Modal, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { BankAccount } from '../../../contract/banks';
import type { User } from '../../../contract/users';
import { isInvalidAnswer } from '../../lib/api-client';
import { bankDetailsQuery } from './banks.api';
import { ErrorAlert } from '../../components/error-alert';

const orNA = (v: string | number | null | undefined) => (v === null || v === undefined || v === '' ? 'N/A' : String(v));

function Field({ label, value }: { label: string; value: string | number | null | undefined }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500}>
        {orNA(value)}
      </Text>
    </div>
  );
}

function AccountCard({ account, n }: { account: BankAccount; n: number }) {
  return (
    <Paper
      withBorder
      p="md"
      radius="md"
      bg={account.isPrimary ? 'var(--mantine-color-indigo-light)' : undefined}
      style={account.isPrimary ? { borderColor: 'var(--mantine-color-indigo-filled)' } : undefined}
      aria-label={`Account #${n}`}
      component="section"
    >
      <Group justify="space-between" mb="sm">
        <Text fw={600}>{`Account #${n}`}</Text>
        {account.isPrimary && <Badge color="indigo">Primary Account</Badge>}
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Field label="Account Holder" value={account.accountHolderName} />
        <Field label="Account Number" value={account.accountNumber} />
        <Field label="IFSC Code" value={account.ifsc} />
        <Field label="Bank Name" value={account.bank} />
        <Field label="Branch" value={account.branch} />
        <Field label="Bank ID" value={account.bankId} />
      </SimpleGrid>
    </Paper>
  );
}

export function BankDetailsModal({ member, onClose }: { member: User | null; onClose: () => void }) {
  return (
    <Modal opened={member !== null} onClose={onClose} size="lg" centered title={member ? `Bank Details: ${member.fullName}` : ''}>
      {member && <BankAccounts userId={member.userId} />}
    </Modal>
  );
}

function BankAccounts({ userId }: { userId: number }) {
  const accounts = useQuery(bankDetailsQuery(userId));
  if (accounts.isPending) {
    return (
      <Group justify="center" py="xl">
        <Loader size="sm" aria-label="Loading bank details" />
      </Group>
    );
  }
  if (accounts.isError) {
    return (
      <ErrorAlert error={isInvalidAnswer(accounts.error) ? 'Unexpected API response format' : 'Failed to fetch bank details. Please try again later.'} />
    );
  }
  if (accounts.data.length === 0) {
    return (
      <Text c="dimmed" ta="center" py="lg">
        No bank details found for this user.
      </Text>
    );
  }
  return (
    <Stack>
      {accounts.data.map((a, i) => (
        <AccountCard key={a._id} account={a} n={i + 1} />
      ))}
    </Stack>
  );
}
