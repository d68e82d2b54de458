import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Modal, NumberInput, Select, Stack, Text } from '@mantine/core';
import type { Payout } from '../../../contract/payouts';
import { TYPE_INCOMES } from '../../../contract/payouts';
import { errorMessage } from '../../lib/api-client';
import { formatAmount } from '../../lib/format';
import { usePayPayout } from './payouts.api';

interface PayPayoutModalProps {
  payout: Payout;
  onClose: () => void;
  onPaid: (message: string) => void;
}

/** 'Process Payment': Amount and Type Income; one idempotency key per opened form. */
export function PayPayoutModal({ payout, onClose, onPaid }: PayPayoutModalProps) {
  const [amount, setAmount] = useState<number | string>(payout.amount);
  const [typeIncome, setTypeIncome] = useState<'dailyPayout' | 'wallet recharge'>('dailyPayout');
  const [validation, setValidation] = useState<string | null>(null);
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const pay = usePayPayout();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (pay.isPending) return;
    const value = typeof amount === 'number' ? amount : Number(amount);
    if (!Number.isFinite(value) || value <= 0) {
      setValidation('Please enter a valid amount');
      return;
    }
    setValidation(null);
    pay.mutate(
      { userId: payout.userId, amount: value, typeIncome, payoutId: payout.id, idempotencyKey },
      { onSuccess: (res) => onPaid(res.message) },
    );
  };

  return (
    <Modal opened onClose={onClose} title="Process Payment" centered>
      <form onSubmit={submit} noValidate aria-label="Process Payment">
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {`${payout.userName} · payout of ${formatAmount(payout.amount)} for ${payout.date}`}
          </Text>
          {validation && (
            <Alert color="orange" variant="light" role="alert">
              {validation}
            </Alert>
          )}
          {pay.isError && (
            <Alert color="red" variant="light" role="alert">
              {`Failed to process payment: ${errorMessage(pay.error, pay.error instanceof Error ? pay.error.message : 'Request failed')}`}
            </Alert>
          )}
          <NumberInput label="Amount" value={amount} onChange={setAmount} min={0.01} step={0.01} decimalScale={2} data-autofocus />
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
