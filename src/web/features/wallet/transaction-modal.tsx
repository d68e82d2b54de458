import { useId, useState, type FormEvent } from 'react';
import { Alert, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { WALLET_TYPES, type MemberBalance, type WalletType } from '../../../contract/wallet';
import { AmountInput } from '../../components/amount-input';
import { MemberPicker } from '../../components/member-picker';
import { parseAmount } from '../../lib/amount';
import { errorMessage } from '../../lib/api-client';
import { formatAmount } from '../../lib/format';
import { outcomeOf, useIdempotencyKey, type MoneyOutcome } from '../../lib/money-request';
import { memberOptionsQuery, myDayQuery, useCreateTransaction } from './wallet.api';
import { ErrorAlert } from '../../components/error-alert';

interface TransactionModalProps {
  onClose: () => void;
  onCreated: (outcome: MoneyOutcome) => void;
}

/** 'Add New Transaction': a member, an amount of at least 0.01 (sent exactly as typed) and the transaction type. */
export function TransactionModal({ onClose, onCreated }: TransactionModalProps) {
  const [userId, setUserId] = useState<string | null>(null);
  const [amount, setAmount] = useState('');
  const [transactionType, setTransactionType] = useState<WalletType>('wallet_recharge');
  const [validation, setValidation] = useState<string | null>(null);
  const keys = useIdempotencyKey();
  const messageId = useId();
  const create = useCreateTransaction();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    const value = parseAmount(amount);
    if (!userId || value === null) {
      create.reset();
      setValidation('Please select a user and enter a valid amount');
      return;
    }
    setValidation(null);
    const body = { userId: Number(userId), amount: value, transactionType };
    create.mutate(
      { ...body, idempotencyKey: keys.keyFor(body) },
      { onSuccess: (res) => onCreated(outcomeOf(res)), onError: keys.settle },
    );
  };

  return (
    <Modal opened onClose={onClose} title="Add New Transaction" centered>
      <form onSubmit={submit} noValidate aria-label="Add New Transaction">
        <Stack gap="md">
          {validation && (
            <Alert id={messageId} color="orange" variant="light" role="alert">
              {validation}
            </Alert>
          )}
          {create.isError && (
            <ErrorAlert error={errorMessage(create.error, 'Failed to create transaction')} />
          )}
          <MemberPicker
            label="User"
            placeholder="Search a user by name"
            value={userId}
            onChange={setUserId}
            search={memberOptionsQuery}
            optionLabel={memberLabel}
            error={validation !== null && !userId}
            aria-describedby={validation !== null && !userId ? messageId : undefined}
            data-autofocus
            // Focused when the dialog opens: the list opens when the operator types or clicks, not
            // before (an open, unfocusable list on arrival is a scroll region a keyboard can't reach).
            openOnFocus={false}
          />
          <AmountInput label="Amount" value={amount} onChange={setAmount} invalid={validation !== null && parseAmount(amount) === null} messageId={messageId} />
          <MyDayNote userId={userId === null ? null : Number(userId)} />
          <Select
            label="Transaction Type"
            data={WALLET_TYPES.map((t) => ({ value: t.value, label: t.label }))}
            value={transactionType}
            onChange={(v) => v && setTransactionType(v as WalletType)}
            allowDeselect={false}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Save Transaction
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * How much of the operator's day is left (issue 22): credits and debits against their daily
 * limits, and for the chosen member what may still move before a second operator must approve.
 */
function MyDayNote({ userId }: { userId: number | null }) {
  const day = useQuery(myDayQuery(userId));
  if (!day.data) return null;
  const d = day.data;
  const member = d.leftBeforeApproval !== undefined
    ? ` For this member: ${formatAmount(d.leftBeforeApproval)} more today before a second operator must approve (threshold ${formatAmount(d.approvalThreshold)}).`
    : '';
  return (
    <Text size="xs" c="dimmed" aria-live="polite">
      {`Left today: ${formatAmount(d.creditLeft)} of ${formatAmount(d.dailyCreditLimit)} in credits, ${formatAmount(d.debitLeft)} of ${formatAmount(d.dailyDebitLimit)} in debits.${member}`}
    </Text>
  );
}

/** Who, and what their wallet holds (a withdrawal cannot exceed it). */
const memberLabel = (m: MemberBalance) => `${m.fullName} (ID: ${m.userId}) · balance ${formatAmount(m.balance)}`;
