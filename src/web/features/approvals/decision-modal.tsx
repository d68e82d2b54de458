import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import type { Approval } from '../../../contract/approvals';
import { bankChangeRequest } from '../../../contract/banks';
import { errorMessage } from '../../lib/api-client';
import { formatINR } from '../../lib/format';
import { useIdempotencyKey } from '../../lib/money-request';
import { useDecideApproval } from './approvals.api';
import { isBankMoney, kindLabel } from './approval-kinds';
import { BeforeAfterTable, ChangeDetails, type ChangeRow } from './change-details';
import { BankRequestLines } from './bank-request-lines';
import { ErrorAlert } from '../../components/error-alert';

interface DecisionModalProps {
  approval: Approval;
  action: 'approve' | 'reject';
  onClose: () => void;
  onDecided: (message: string) => void;
}

const BANK_FIELDS = [
  ['accountNumber', 'Account Number'],
  ['ifsc', 'IFSC Code'],
  ['accountHolderName', 'Account Holder'],
  ['bank', 'Bank Name'],
] as const;

/**
 * A bank account change (issue 22): the whole old and new account number and IFSC, side by side,
 * and for an account made primary the account payouts went to before, so the checker sees exactly
 * where the member's money would go.
 */
function BankChangeTable({ details }: { details: Approval['details'] }) {
  const parsed = bankChangeRequest.safeParse(details);
  if (!parsed.success) return null;
  const { before, changes, primaryBefore } = parsed.data;
  const rows: ChangeRow[] = BANK_FIELDS.map(([key, label]) => ({ key, label, before: before[key], after: changes[key] ?? before[key] }));
  // Made primary: gathers pay this account instead of the member's current primary.
  if (primaryBefore !== undefined) {
    rows.push({
      key: 'paidTo',
      label: 'Payouts go to',
      before: primaryBefore ? `${primaryBefore.accountNumber} · ${primaryBefore.ifsc} (${primaryBefore.bank})` : 'No primary account',
      after: `${changes.accountNumber ?? before.accountNumber} · ${changes.ifsc ?? before.ifsc} (${changes.bank ?? before.bank})`,
    });
  }
  return <BeforeAfterTable label="Bank account change" rows={rows} />;
}

/** Money out to banks: no one member, but money moves (a batch released, returns credited back). */

/** Confirms a decision; a rejection asks why. A refusal stays in the dialog with the server's reason. */
export function DecisionModal({ approval, action, onClose, onDecided }: DecisionModalProps) {
  const decide = useDecideApproval();
  const keys = useIdempotencyKey();
  const [remarks, setRemarks] = useState('');
  const [remarksError, setRemarksError] = useState<string | null>(null);
  const approving = action === 'approve';

  const submit = () => {
    const reason = remarks.trim();
    if (!approving && !reason) {
      setRemarksError('Please give the reason for rejecting this request');
      return;
    }
    const request = { id: approval.id, action, ...(approving ? {} : { remarks: reason }) };
    decide.mutate(
      { ...request, idempotencyKey: keys.keyFor(request) },
      { onSuccess: (answer) => onDecided(answer.message), onError: keys.settle },
    );
  };

  return (
    <Modal opened onClose={onClose} title={approving ? 'Approve Request' : 'Reject Request'} centered size={approval.details ? 'lg' : 'md'}>
      <Stack gap="md">
        <Text>
          {approval.kind === 'bank_account_change' || approval.kind === 'pan_change'
            ? `${kindLabel(approval.kind)} for ${approval.userName} (ID: ${approval.userId}), requested by ${approval.makerName}.`
            : isBankMoney(approval.kind)
            ? `${kindLabel(approval.kind)} of ${formatINR(approval.amount)}, requested by ${approval.makerName}.`
            : approval.userId === null
            ? `${kindLabel(approval.kind)} (${approval.kind === 'run_rerun' ? 'it would pay' : 'projected cost'} ${formatINR(approval.amount)}), requested by ${approval.makerName}.`
            : `${kindLabel(approval.kind)} of ${formatINR(approval.amount)} for ${approval.userName} (ID: ${approval.userId}), requested by ${approval.makerName}.`}
        </Text>
        {approval.kind === 'bank_account_change' ? <BankChangeTable details={approval.details} /> : <ChangeDetails details={approval.details} />}
        {isBankMoney(approval.kind) && <BankRequestLines approvalId={approval.id} kind={approval.kind} />}
        <Text size="sm" c="dimmed">
          {approval.kind === 'bank_account_change' || approval.kind === 'pan_change'
            ? approving
              ? approval.kind === 'pan_change'
                ? 'The member\u2019s PAN changes as soon as you approve.'
                : approval.details?.primaryBefore !== undefined
                ? 'Payouts go to this account as soon as you approve.'
                : 'The account takes the new details as soon as you approve.'
              : 'Nothing changes; the requesting operator sees your reason.'
            : approval.userId === null && !isBankMoney(approval.kind)
            ? approving ? 'It takes effect as soon as you approve.' : 'Nothing changes; the requesting operator sees your reason.'
            : approving ? 'The money moves as soon as you approve.' : 'Nothing moves; the requesting operator sees your reason.'}
        </Text>
        {!approving && (
          <Textarea
            label="Reason for rejecting"
            required
            minRows={3}
            maxLength={500}
            value={remarks}
            error={remarksError}
            onChange={(e) => {
              setRemarks(e.currentTarget.value);
              setRemarksError(null);
            }}
            data-autofocus
          />
        )}
        {decide.isError && (
          <ErrorAlert error={errorMessage(decide.error, approving ? 'Failed to approve the request' : 'Failed to reject the request')} />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={decide.isPending}>
            Cancel
          </Button>
          <Button color={approving ? 'teal' : 'red'} onClick={submit} loading={decide.isPending}>
            {approving ? 'Approve' : 'Reject'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
