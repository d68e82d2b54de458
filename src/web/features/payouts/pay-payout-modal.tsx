import { useId, useState, type FormEvent } from 'react';
import { Alert, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { TYPE_INCOMES } from '../../../contract/payouts';
import { AmountInput } from '../../components/amount-input';
import { parseAmount } from '../../lib/amount';
import { errorMessage } from '../../lib/api-client';
import { formatAmount } from '../../lib/format';
import { outcomeOf, useIdempotencyKey, type MoneyOutcome } from '../../lib/money-request';
import { usePayPayout, type PayoutRow } from './payouts.api';
import { ErrorAlert } from '../../components/error-alert';

interface PayPayoutModalProps {
  /** A payout whose member is known (a row without userId offers no Pay Now). */
  payout: PayoutRow & { userId: number };
  onClose: () => void;
  onPaid: (outcome: MoneyOutcome) => void;
}

/** 'Process Payment': Amount (sent exactly as typed) and Type Income; one idempotency key per distinct request. */
export function PayPayoutModal({ payout, onClose, onPaid }: PayPayoutModalProps) {
  const [amount, setAmount] = useState(() => String(payout.amount));
  const [typeIncome, setTypeIncome] = useState<'dailyPayout' | 'wallet recharge'>('dailyPayout');
  const [validation, setValidation] = useState<string | null>(null);
  const keys = useIdempotencyKey();
  const messageId = useId();
  const pay = usePayPayout();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (pay.isPending) return;
    const value = parseAmount(amount);
    if (value === null) {
      pay.reset();
      setValidation('Please enter a valid amount');
      return;
    }
    setValidation(null);
    const body = { userId: payout.userId, amount: value, typeIncome, payoutId: payout.id };
    pay.mutate(
      { ...body, idempotencyKey: keys.keyFor(body) },
      { onSuccess: (res) => onPaid(outcomeOf(res)), onError: keys.settle },
    );
  };

  return (
    <Modal opened onClose={onClose} title="Process Payment" centered>
      <form onSubmit={submit} noValidate aria-label="Process Payment">
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {`${payout.userName} · payout of ${formatAmount(payout.amount)} for ${payout.date}`}
          </Text>
          {payout.status === 'Failure' && payout.reason && <Text size="sm">{`Why it failed: ${payout.reason}`}</Text>}
          {validation && (
            <Alert id={messageId} color="orange" variant="light" role="alert">
              {validation}
            </Alert>
          )}
          {pay.isError && (
            <ErrorAlert error={`Failed to process payment: ${errorMessage(pay.error, pay.error instanceof Error ? pay.error.message : 'Request failed')}`} />
          )}
          <AmountInput
            label="Amount"
            value={amount}
            onChange={setAmount}
            invalid={validation !== null && parseAmount(amount) === null}
            messageId={messageId}
            data-autofocus
          />
          <Select
            label="Type Income"
            data={TYPE_INCOMES.map((t) => ({ value: t.value, label: t.label }))}
            value={typeIncome}
            onChange={(v) => v && setTypeIncome(v as 'dailyPayout' | 'wallet recharge')}
            allowDeselect={false}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={pay.isPending}>
              Cancel
            </Button>
            <Button type="submit" color="teal" loading={pay.isPending}>
              Process Payment
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
