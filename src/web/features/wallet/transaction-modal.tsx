import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Modal, NumberInput, Select, Stack } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { WALLET_TYPES, type WalletType } from '../../../contract/wallet';
import { errorMessage } from '../../lib/api-client';
import { formatAmount } from '../../lib/format';
import { memberOptionsQuery, useCreateTransaction } from './wallet.api';

interface TransactionModalProps {
  onClose: () => void;
  onCreated: (message: string) => void;
}

/** 'Add New Transaction': a member, an amount of at least 0.01 and the transaction type. */
export function TransactionModal({ onClose, onCreated }: TransactionModalProps) {
  const [userId, setUserId] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const [amount, setAmount] = useState<number | string>('');
  const [transactionType, setTransactionType] = useState<WalletType>('wallet_recharge');
  const [validation, setValidation] = useState<string | null>(null);
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const members = useQuery(memberOptionsQuery(debounced));
  const create = useCreateTransaction();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    const value = typeof amount === 'number' ? amount : Number(amount);
    if (!userId || amount === '' || !Number.isFinite(value) || value < 0.01) {
      setValidation('Please select a user and enter a valid amount');
      return;
    }
    setValidation(null);
    create.mutate(
      { userId: Number(userId), amount: value, transactionType, idempotencyKey },
      { onSuccess: (res) => onCreated(res.message) },
    );
  };

  const options = (members.data ?? []).map((m) => ({
    value: String(m.userId),
    label: `${m.fullName} (ID: ${m.userId}) · balance ${formatAmount(m.balance)}`,
  }));

  return (
    <Modal opened onClose={onClose} title="Add New Transaction" centered>
      <form onSubmit={submit} noValidate aria-label="Add New Transaction">
        <Stack gap="md">
          {validation && (
            <Alert color="orange" variant="light" role="alert">
              {validation}
            </Alert>
          )}
          {create.isError && (
            <Alert color="red" variant="light" role="alert">
              {errorMessage(create.error, 'Failed to create transaction')}
            </Alert>
          )}
          <Select
            label="User"
            placeholder="Search a user by name"
            searchable
            data={options}
            value={userId}
            onChange={setUserId}
            searchValue={search}
            onSearchChange={setSearch}
            filter={({ options: all }) => all}
            nothingFoundMessage={members.isFetching ? 'Searching...' : 'No users found'}
            openOnFocus={false}
            data-autofocus
          />
          <NumberInput label="Amount" value={amount} onChange={setAmount} min={0.01} step={0.01} decimalScale={2} />
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
