import { Stack, Text, Textarea } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { reverseBody, type ReversalPreview, type Run } from '../../../contract/income-runs';
import { ErrorAlert } from '../../components/error-alert';
import { FormModal } from '../../components/form-modal';
import { useContractForm } from '../../components/use-contract-form';
import { formatCount, formatINR } from '../../lib/format';
import { useIdempotencyKey } from '../../lib/money-request';
import { kindLabel, periodText } from './run-format';
import { reversalPreviewQuery, useReverseRun } from './runs.api';

/** "27 lines of 9 members will be reversed" (or nothing to take back). */
export function reversalSummary(p: ReversalPreview): string {
  if (p.lines === 0) return 'No money lines to reverse: the run paid nothing that is still on the books.';
  return `${formatCount(p.lines)} line(s) of ${formatCount(p.members)} member(s) will be reversed.`;
}

export interface ReverseOutcome {
  message: string;
  /** Set when the reversal is above the approval threshold and waits for a second operator. */
  approvalId: number | null;
}

interface ReverseRunFormProps {
  run: Run;
  onClose: () => void;
  onDone: (outcome: ReverseOutcome) => void;
}

/**
 * Reverse Run: compensating ledger rows for every credit of the run (never a deletion); what a
 * member's balance no longer covers is recorded as a shortfall. Remarks are required.
 */
export function ReverseRunForm({ run, onClose, onDone }: ReverseRunFormProps) {
  const reverse = useReverseRun();
  // Issue 24: what the reversal will do, from the server's own reversal statement, before it is confirmed.
  const preview = useQuery(reversalPreviewQuery(run.runId));
  const p = preview.data?.data;
  const keys = useIdempotencyKey();
  const { form, error, submit } = useContractForm({
    initialValues: { remarks: '' },
    schema: reverseBody,
    toBody: (v) => ({ remarks: v.remarks.trim() }),
    failure: (err) => `Failed to reverse the run: ${err instanceof Error ? err.message : 'An unexpected error occurred'}`,
  });

  return (
    <FormModal
      title="Reverse Run"
      onClose={onClose}
      onSubmit={submit(async (body) => {
        // Confirmed only once the operator has been shown what it will do.
        if (!p) throw new Error('what it will do could not be worked out yet: try again in a moment');
        const request = { id: run.runId, remarks: body.remarks };
        try {
          const answer = await reverse.mutateAsync({ ...request, idempotencyKey: keys.keyFor(request) });
          const pending = 'approvalId' in answer.data ? answer.data.approvalId : null;
          onDone({ message: answer.message, approvalId: pending });
        } catch (err) {
          keys.settle(err);
          throw err;
        }
      })}
      error={error}
      busy={reverse.isPending || preview.isPending}
      submitLabel="Reverse Run"
      submitColor="red"
    >
      <Text>{`Run #${run.runId}: ${kindLabel(run.kind)} for ${periodText(run)}.`}</Text>
      {preview.isPending && (
        <Text size="sm" role="status">
          Working out what the reversal will do…
        </Text>
      )}
      <ErrorAlert error={preview.error} prefix="Failed to work out what the reversal will do: " />
      {p && (
        <Stack gap={4} role="region" aria-label="What will be reversed">
          <Text fw={600}>{reversalSummary(p)}</Text>
          <Text size="sm">{`Gross ${formatINR(p.gross)}, TDS and admin charge ${formatINR(p.deductions)}, net ${formatINR(p.net)}.`}</Text>
          {p.payNowLines > 0 && (
            <Text size="sm">{`Included: ${formatCount(p.payNowLines)} Pay Now line(s) of ${formatCount(p.payNowMembers)} member(s), paid after the run.`}</Text>
          )}
          {p.bankUnsent > 0 && (
            <Text size="sm">{`Not yet in a bank batch: ${formatINR(p.bankUnsent)} to send to banks is cancelled (it stays in the wallets and is taken back with the rest).`}</Text>
          )}
          {p.bankSent > 0 && (
            <Text size="sm">{`Already in bank batches: ${formatINR(p.bankSent)} is (or will be) at the members' banks; it is taken back from their wallets as far as they cover it.`}</Text>
          )}
          {p.unpaidFailures > 0 && (
            <Text size="sm">{`${formatCount(p.unpaidFailures)} unpaid failure(s) will be marked Reversed.`}</Text>
          )}
          <Text size="sm">
            {p.shortfall > 0
              ? `Taken back from wallets now: ${formatINR(p.takenBack)}; ${formatCount(p.shortfallMembers)} member(s) no longer have ${formatINR(p.shortfall)}, recorded as a shortfall they owe.`
              : `Taken back from wallets now: ${formatINR(p.takenBack)}.`}
          </Text>
        </Stack>
      )}
      <Text size="sm" c="dimmed">
        Every line of the run is compensated by a new entry, never deleted; no balance goes below zero. The payouts stay on Daily
        Payout, marked Reversed with your name and these remarks.
      </Text>
      <Textarea label="Remarks" withAsterisk minRows={3} maxLength={500} data-autofocus {...form.getInputProps('remarks')} />
    </FormModal>
  );
}
