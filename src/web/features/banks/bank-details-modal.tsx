import { useState } from 'react';
import { Alert, Button, Group, Loader, Modal, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconEdit, IconPlus, IconStar, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { maskAccountNumber, type BankAccount } from '../../../contract/banks';
import type { User } from '../../../contract/users';
import { isInvalidAnswer } from '../../lib/api-client';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ApprovalNotice } from '../../components/approval-notice';
import { ErrorAlert, messageOf } from '../../components/error-alert';
import { RowAction, RowActions } from '../../components/row-actions';
import { StatusBadge } from '../../components/status-badge';
import { useAuth } from '../auth/auth-context';
import { BankForm } from './bank-form';
import { bankDetailsQuery, useDeleteBank, useUpdateBank } from './banks.api';

const orNA = (v: string | number | null | undefined) => (v === null || v === undefined || v === '' ? 'N/A' : String(v));

/** How an account is named to the operator and to screen readers: 'account ending 1234'. */
export const accountName = (a: BankAccount) => `account ending ${a.accountNumber.slice(-4)}`;

function Field({ label, value }: { label: string; value: string | number | null | undefined }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
        {orNA(value)}
      </Text>
    </div>
  );
}

interface AccountActions {
  onAdd: () => void;
  onEdit: (a: BankAccount) => void;
  onMakePrimary: (a: BankAccount) => void;
  onDelete: (a: BankAccount) => void;
  busy: boolean;
}

function AccountCard({ account, n, actions }: { account: BankAccount; n: number; actions: AccountActions | null }) {
  const name = accountName(account);
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
      <Group justify="space-between" mb="sm" wrap="nowrap">
        <Group gap="sm">
          <Text fw={600}>{`Account #${n}`}</Text>
          {account.isPrimary && <StatusBadge tone="info">Primary Account</StatusBadge>}
        </Group>
        {actions && (
          <RowActions>
            {!account.isPrimary && (
              <RowAction
                label="Make primary"
                name={`Make ${name} primary`}
                icon={<IconStar size={18} aria-hidden />}
                onClick={() => actions.onMakePrimary(account)}
                disabled={actions.busy}
              />
            )}
            <RowAction label="Edit" name={`Edit ${name}`} icon={<IconEdit size={18} aria-hidden />} onClick={() => actions.onEdit(account)} disabled={actions.busy} />
            {/* The primary is never deleted: another is made primary first (under four eyes). */}
            {!account.isPrimary && (
              <RowAction
                label="Delete"
                name={`Delete ${name}`}
                icon={<IconTrash size={18} aria-hidden />}
                color="red"
                onClick={() => actions.onDelete(account)}
                disabled={actions.busy}
              />
            )}
          </RowActions>
        )}
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Field label="Account Holder" value={account.accountHolderName} />
        {/* Masked: the whole number is only in the edit form of an operator who may change it. */}
        <Field label="Account Number" value={maskAccountNumber(account.accountNumber)} />
        <Field label="IFSC Code" value={account.ifsc} />
        <Field label="Bank Name" value={account.bank} />
        <Field label="Branch" value={account.branch} />
        <Field label="Bank ID" value={account.bankId} />
      </SimpleGrid>
    </Paper>
  );
}

/**
 * A member's accounts and, for an operator with banks_manage, adding, editing, making primary and
 * deleting them (the form and the delete confirmation open over the list).
 */
export function BankDetailsModal({ member, onClose }: { member: User | null; onClose: () => void }) {
  const canManage = useAuth().permissions.includes('banks_manage');
  const [form, setForm] = useState<{ editing: BankAccount | null } | null>(null);
  const [deleting, setDeleting] = useState<BankAccount | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [awaitingApproval, setAwaitingApproval] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const update = useUpdateBank();
  const remove = useDeleteBank();

  const covered = form !== null || deleting !== null;
  const done = (message: string, pending = false) => {
    setFailure(null);
    setSuccess(pending ? null : message);
    setAwaitingApproval(pending ? message : null);
  };
  const begin = () => {
    setSuccess(null);
    setAwaitingApproval(null);
    setFailure(null);
  };
  const close = () => {
    begin();
    onClose();
  };
  const actions: AccountActions = {
    onAdd: () => {
      begin();
      setForm({ editing: null });
    },
    onEdit: (a) => {
      begin();
      setForm({ editing: a });
    },
    onMakePrimary: (a) => {
      begin();
      update.mutate(
        { bankId: a.bankId, body: { isPrimary: true } },
        {
          // Filed for a second operator (202): nothing changes until it is approved.
          onSuccess: (answer) => ('approvalId' in answer.data ? done(answer.message, true) : done(`The ${accountName(a)} is now the primary account`)),
          onError: (err) => setFailure(messageOf(err, 'Failed to update bank account')),
        },
      );
    },
    onDelete: (a) => {
      begin();
      setDeleting(a);
    },
    busy: update.isPending || remove.isPending,
  };

  return (
    <>
      <Modal
        opened={member !== null}
        onClose={close}
        size="lg"
        centered
        title={member ? `Bank Details: ${member.fullName}` : ''}
        // Mantine closes every open modal on Escape: while the form or the confirmation is over
        // this one, Escape and the keyboard belong to them.
        closeOnEscape={!covered}
        trapFocus={!covered}
      >
        {member && (
          <Stack>
            {success && (
              <Alert color="teal" variant="light" role="status" withCloseButton onClose={() => setSuccess(null)} closeButtonLabel="Dismiss">
                {success}
              </Alert>
            )}
            <ApprovalNotice message={awaitingApproval} onClose={() => setAwaitingApproval(null)} />
            <ErrorAlert error={failure} />
            <BankAccounts userId={member.userId} actions={canManage ? actions : null} />
          </Stack>
        )}
      </Modal>
      {member && form && (
        <BankForm
          userId={member.userId}
          holder={member.fullName}
          account={form.editing}
          onClose={() => setForm(null)}
          onSaved={(message, pending) => {
            setForm(null);
            done(message, pending);
          }}
        />
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title="Delete Bank Account"
        message={
          deleting
            ? `Delete the ${accountName(deleting)} (${deleting.bank})? This cannot be undone.`
            : ''
        }
        busy={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate(deleting.bankId, {
            onSuccess: (answer) => done(answer.message),
            onError: (err) => setFailure(messageOf(err, 'Failed to delete bank account')),
            onSettled: () => setDeleting(null),
          });
        }}
      />
    </>
  );
}

function BankAccounts({ userId, actions }: { userId: number; actions: AccountActions | null }) {
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
  return (
    <>
      {actions && (
        <Group justify="flex-end">
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={actions.onAdd}>
            Add Account
          </Button>
        </Group>
      )}
      {accounts.data.length === 0 ? (
        <Text c="dimmed" ta="center" py="lg">
          No bank details found for this user.
        </Text>
      ) : (
        accounts.data.map((a, i) => <AccountCard key={a._id} account={a} n={i + 1} actions={actions} />)
      )}
    </>
  );
}
