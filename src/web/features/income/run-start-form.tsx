import { useIdempotencyKey } from '../../lib/money-request';
import { Alert, Button, Group, Paper, Select, SimpleGrid, Text, TextInput } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import { isoToWireDate } from '../../../contract/common';
import { RUN_KINDS, runBody, type Run, type RunBody, type RunKind, type RunTotals } from '../../../contract/income-runs';
import { ErrorAlert } from '../../components/error-alert';
import { FormModal } from '../../components/form-modal';
import { useContractForm } from '../../components/use-contract-form';
import { formatCount, formatINR } from '../../lib/format';
import { istToday, kindLabel, periodText } from './run-format';
import { usePreviewRun, useStartRun } from './runs.api';

interface RunStartFormProps {
  onClose: () => void;
  /** created: a new run (201); false: the period's existing run (200). */
  onStarted: (run: Run, created: boolean, message: string) => void;
  /** A reversed period's re-run was filed for a second operator (202). */
  onFiled: (message: string) => void;
}

const toBody = (v: { kind: string; date: string }): RunBody => ({ kind: v.kind as RunKind, date: v.date ? isoToWireDate(v.date) : '' });

function PreviewFigures({ totals }: { totals: RunTotals }) {
  const figures = [
    ['Units', formatCount(totals.total)],
    ['To be paid', formatCount(totals.paid)],
    ['Failures', formatCount(totals.failed)],
    ['Gross', formatINR(totals.gross)],
    ['TDS', formatINR(totals.tds)],
    ['Admin charge', formatINR(totals.adminCharge)],
    ['Net (gross − TDS − admin charge)', formatINR(totals.net)],
    ['Failed amount', formatINR(totals.failedAmount)],
  ];
  return (
    <SimpleGrid cols={{ base: 2, xs: 3 }} spacing="xs" component="dl" m={0}>
      {figures.map(([label, value]) => (
        <div key={label}>
          <Text component="dt" size="xs" c="dimmed">
            {label}
          </Text>
          <Text component="dd" m={0} fw={600}>
            {value}
          </Text>
        </div>
      ))}
    </SimpleGrid>
  );
}

/** New Run: a kind and any day of its period; Preview shows what it would do, Start Run does it. */
export function RunStartForm({ onClose, onStarted, onFiled }: RunStartFormProps) {
  const preview = usePreviewRun();
  const start = useStartRun();
  const keys = useIdempotencyKey();
  const { form, error, submit } = useContractForm({
    initialValues: { kind: 'daily_payout', date: istToday() },
    schema: runBody,
    toBody,
    required: { fields: ['date'], message: 'Please choose a day of the period' },
    failure: (err) => `Failed to start the run: ${err instanceof Error ? err.message : 'An unexpected error occurred'}`,
  });
  // A preview describes the kind and day it was asked for; changing either puts it away.
  form.watch('kind', () => preview.reset());
  form.watch('date', () => preview.reset());

  const askPreview = () => {
    if (form.validate().hasErrors) return;
    preview.mutate(toBody(form.getValues()));
  };
  const shown = preview.data?.data;

  return (
    <FormModal
      title="New Run"
      size="lg"
      onClose={onClose}
      onSubmit={submit(async (body) => {
        try {
          const answer = await start.mutateAsync({ body, idempotencyKey: keys.keyFor(body) });
          if (answer.filed) onFiled(answer.message);
          else onStarted(answer.data, answer.created, answer.message);
        } catch (err) {
          keys.settle(err);
          throw err;
        }
      })}
      error={error}
      busy={start.isPending}
      submitLabel="Start Run"
    >
      <Select
        label="Kind"
        withAsterisk
        data={RUN_KINDS.map((k) => ({ value: k.value, label: k.label }))}
        allowDeselect={false}
        {...form.getInputProps('kind')}
      />
      <TextInput
        type="date"
        label="Date"
        description="Any day of the period: the kind's day, week or month around it is run"
        withAsterisk
        data-autofocus
        {...form.getInputProps('date')}
      />
      <Group>
        <Button variant="light" leftSection={<IconEye size={16} aria-hidden />} onClick={askPreview} loading={preview.isPending}>
          Preview
        </Button>
      </Group>
      <ErrorAlert error={preview.error} prefix="Failed to preview the run: " />
      {shown && (
        <Paper withBorder radius="md" p="sm" component="section" aria-label="Preview">
          <Text fw={600} mb="xs">
            {`${kindLabel(shown.kind)} for ${periodText(shown)}`}
          </Text>
          {shown.existingRunId !== null && (
            <Alert color="orange" variant="light" mb="xs">
              {`This period already has run #${shown.existingRunId}`}
            </Alert>
          )}
          {shown.nothingBecause && (
            <Alert color="blue" variant="light" mb="xs">
              {shown.nothingBecause}
            </Alert>
          )}
          <PreviewFigures totals={shown.totals} />
          <Text size="xs" c="dimmed" mt="xs">
            Nothing has been written: Start Run pays exactly once per period.
          </Text>
        </Paper>
      )}
    </FormModal>
  );
}
