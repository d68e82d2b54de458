import type { ReactNode } from 'react';
import { Group, Paper, Stack, Text, Title, type MantineSpacing } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { CsvButton } from '../../components/csv-button';
import { ErrorAlert } from '../../components/error-alert';
import type { CsvFile } from '../../components/list-page';
import { PrintButton } from '../../components/print-button';
import { errorMessage } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';

interface PaperHeadingProps {
  /** 'Statement of account', 'Ledger of account'. */
  title: string;
  fullName: string;
  userId: number;
  /** What the paper covers: the period, the kind, the balances. */
  lines: string[];
  printedAt: Date;
  /** Said when the paper holds only part of the lines. */
  cut: string | null;
}

/** The heading of a member's printed statement or ledger: on paper only. */
export function PaperHeading({ title, fullName, userId, lines, printedAt, cut }: PaperHeadingProps) {
  return (
    <div className="print-only">
      <Title order={2} size="h3">
        {title}
      </Title>
      <Text>{`${fullName} · Member #${userId}`}</Text>
      {lines.map((line) => (
        <Text size="sm" key={line}>
          {line}
        </Text>
      ))}
      <Text size="sm">{`Printed ${formatDateTime(printedAt)}`}</Text>
      {cut && <Text size="sm">{cut}</Text>}
    </div>
  );
}

interface SectionBarProps {
  /** The title's id: the section is labelled by it. */
  id: string;
  title: string;
  csv: CsvFile;
  print: { label: string; prepare: () => Promise<void>; onBeforePrint: () => void };
  onError: (message: string) => void;
}

/** A member section's title with Download CSV and Print: on screen only. */
export function SectionBar({ id, title, csv, print, onError }: SectionBarProps) {
  return (
    <Group justify="space-between" className="no-print">
      <Title order={2} size="h4" id={id}>
        {title}
      </Title>
      <Group gap="sm">
        <CsvButton endpoint={csv.endpoint} input={csv.input} filename={csv.filename} onError={onError} />
        <PrintButton label={print.label} prepare={print.prepare} onBeforePrint={print.onBeforePrint} />
      </Group>
    </Group>
  );
}

/** A section's problems: a failed download or print (dismissable, screen only), a failed load (with Retry). */
export function SectionProblems({ problem, onClose, query, loadError }: { problem: string | null; onClose: () => void; query: UseQueryResult; loadError: string }) {
  return (
    <>
      <ErrorAlert error={problem} onClose={onClose} className="no-print" />
      {query.isError && <ErrorAlert error={errorMessage(query.error, loadError)} onRetry={() => query.refetch()} />}
    </>
  );
}

/** A titled panel of the member screen, labelled by its title for screen readers. */
export function MemberSection({ id, title, gap, children }: { id: string; title: string; gap: MantineSpacing; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={id}>
      <Stack gap={gap}>
        <Title order={2} size="h4" id={id}>
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}
