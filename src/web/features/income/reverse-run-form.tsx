import { Text, Textarea } from '@mantine/core';
import { reverseBody, type Run } from '../../../contract/income';
import { FormModal } from '../../components/form-modal';
import { useContractForm } from '../../components/use-contract-form';
import { formatCount, formatINR } from '../../lib/format';
import { useIdempotencyKey } from '../../lib/money-request';
import { kindLabel, periodText } from './run-format';
import { useReverseRun } from './runs.api';

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
      busy={reverse.isPending}
      submitLabel="Reverse Run"
      submitColor="red"
    >
      <Text>
        {`Run #${run.runId}: ${kindLabel(run.kind)} for ${periodText(run)}, net ${formatINR(run.totals.net)} to ${formatCount(run.totals.paid)} members.`}
      </Text>
      <Text size="sm" c="dimmed">
        Every credit of the run is taken back by a compensating entry. Where a member&apos;s balance no longer covers it, what the
        balance covers is taken and the rest is recorded as a shortfall; no balance goes below zero.
      </Text>
      <Textarea label="Remarks" withAsterisk minRows={3} maxLength={500} data-autofocus {...form.getInputProps('remarks')} />
    </FormModal>
  );
}
