import { useRef, useState, type ReactNode } from 'react';
import { Group, Paper, Stack, Text, Title, type MantineSpacing } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { CsvButton } from '../../components/csv-button';
import { ErrorAlert } from '../../components/error-alert';
import type { CsvFile } from '../../components/list-page';
import { PrintButton } from '../../components/print-button';
import { errorMessage } from '../../lib/api-client';
import { formatCount, formatDateTime } from '../../lib/format';

interface PaperHeadingProps {
  /** 'Statement of account', 'Ledger of account'. */
  title: string;
  fullName: string;
  userId: number;
  /** What the paper covers: the period, the kind, the balances. */
  lines: string[];
  printedAt: Date;
  /** How many lines the paper holds of how many the period has, and which ones when cut ('newest', 'first'). */
  shown: number;
  total: number;
  which: 'newest' | 'first';
}

/** The heading of a member's printed statement or ledger: on paper only. */
export function PaperHeading({ title, fullName, userId, lines, printedAt, shown, total, which }: PaperHeadingProps) {
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
      {total > shown && (
        <Text size="sm">{`The ${which} ${formatCount(shown)} of ${formatCount(total)} lines: narrow the period or download the CSV for all of them.`}</Text>
      )}
    </div>
  );
}

/** What a section's Print button runs: see `usePrintout`. */
interface Printout {
  prepare: () => Promise<void>;
  onBeforePrint: () => void;
}

/**
 * A section's printout: `prepare` fetches what goes to paper (a failure is said through
 * `onProblem`, in the words of `failure`); just before the browser prints, the prepared paper
 * becomes `printed`, stamped with the time, and `onPrinted` tells the screen.
 */
export function usePrintout<T>(fetchPaper: () => Promise<T>, failure: string, onProblem: (message: string) => void, onPrinted: () => void) {
  const prepared = useRef<T | null>(null);
  const [printed, setPrinted] = useState<{ paper: T; at: Date } | null>(null);
  const prepare = async () => {
    try {
      prepared.current = await fetchPaper();
    } catch (err) {
      prepared.current = null;
      onProblem(errorMessage(err, failure));
      throw err;
    }
  };
  const onBeforePrint = () => {
    if (prepared.current) {
      setPrinted({ paper: prepared.current, at: new Date() });
      onPrinted();
    }
  };
  return { printed, clear: () => setPrinted(null), prepare, onBeforePrint };
}

interface SectionBarProps {
  /** The title's id: the section is labelled by it. */
  id: string;
  title: string;
  csv: CsvFile;
  /** The Print button's text ('Print ledger') and what it runs. */
  printLabel: string;
  printout: Printout;
  onError: (message: string) => void;
}

/** A member section's title with Download CSV and Print: on screen only. */
export function SectionBar({ id, title, csv, printLabel, printout, onError }: SectionBarProps) {
  return (
    <Group justify="space-between" className="no-print">
      <Title order={2} size="h4" id={id}>
        {title}
      </Title>
      <Group gap="sm">
        <CsvButton endpoint={csv.endpoint} input={csv.input} filename={csv.filename} onError={onError} />
        <PrintButton label={printLabel} prepare={printout.prepare} onBeforePrint={printout.onBeforePrint} />
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
