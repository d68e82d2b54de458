import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { formatCount } from '../../lib/format';

interface BulkDecisionModalProps {
  action: 'approve' | 'reject';
  count: number;
  onCancel: () => void;
  onConfirm: (remarks: string | undefined) => void;
}

/**
 * Confirms a bulk decision (issue 24); a rejection asks why (the makers see it). Each request is
 * then decided by the rules of a single decision: one the checker filed, or of their own wallet,
 * is left pending and listed with why.
 */
export function BulkDecisionModal({ action, count, onCancel, onConfirm }: BulkDecisionModalProps) {
  const approving = action === 'approve';
  const [remarks, setRemarks] = useState('');
  const [error, setError] = useState<string | null>(null);
  const noun = count === 1 ? 'request' : 'requests';
  const title = `${approving ? 'Approve' : 'Reject'} ${formatCount(count)} ${noun}`;

  const submit = () => {
    const reason = remarks.trim();
    if (!approving && !reason) {
      setError('Please give the reason for rejecting these requests');
      return;
    }
    onConfirm(reason || undefined);
  };

  return (
    <Modal opened onClose={onCancel} title={title} centered>
      <Stack gap="md">
        <Text size="sm">
          {approving
            ? 'Each request is approved on its own, and its money moves as soon as it is. Requests you asked for, or that move your own wallet, stay pending for another operator.'
            : 'Nothing moves; the requesting operators see your reason.'}
        </Text>
        <Textarea
          label={approving ? 'Remarks (optional)' : 'Reason for rejecting'}
          required={!approving}
          minRows={3}
          maxLength={500}
          value={remarks}
          error={error}
          onChange={(e) => {
            setRemarks(e.currentTarget.value);
            setError(null);
          }}
          data-autofocus
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button color={approving ? 'teal' : 'red'} onClick={submit}>
            {title}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
