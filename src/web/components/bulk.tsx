import { useCallback, useRef, useState } from 'react';
import { Alert, Button, Group, List, Modal, Paper, Progress, ScrollArea, Stack, Text } from '@mantine/core';
import { errorMessage } from '../lib/api-client';
import { formatCount } from '../lib/format';
import { ConfirmDialog } from './confirm-dialog';
import type { Selection } from './use-selection';

export interface BulkAction {
  label: string;
  color?: string;
  onClick: () => void;
  disabled?: boolean;
  /** Asked before the action starts ("Deactivate 300 members? …"); the action runs on confirming. */
  confirm?: { title: string; message: string };
}

/**
 * What is selected and what can be done with it: "3 selected · Select all 89 matching · Clear",
 * then the actions. Hidden while nothing is selected.
 */
export function BulkBar<Id extends string | number>({
  selection,
  total,
  noun,
  actions,
}: {
  selection: Selection<Id>;
  /** How many rows the filter matches. */
  total: number;
  /** The rows' name in the plural: 'payouts'. */
  noun: string;
  actions: BulkAction[];
}) {
  const [asking, setAsking] = useState<BulkAction | null>(null);
  if (selection.mode === 'none') return null;
  const everything = selection.mode === 'all';
  return (
    <Paper withBorder radius="md" p="xs" className="no-print" role="region" aria-label={`Bulk actions on ${noun}`}>
      <Group justify="space-between" gap="sm">
        <Group gap="sm">
          <Text size="sm" fw={600} role="status">
            {everything ? `All ${formatCount(total)} matching ${noun} selected` : `${formatCount(selection.count)} selected`}
          </Text>
          {!everything && total > selection.count && (
            <Button variant="subtle" size="compact-sm" onClick={selection.selectAllMatching}>
              Select all {formatCount(total)} matching {noun}
            </Button>
          )}
          <Button variant="subtle" size="compact-sm" color="gray" onClick={selection.clear}>
            Clear selection
          </Button>
        </Group>
        <Group gap="xs">
          {actions.map((action) => (
            <Button
              key={action.label}
              size="compact-sm"
              color={action.color}
              onClick={action.confirm ? () => setAsking(action) : action.onClick}
              disabled={action.disabled}
            >
              {action.label}
            </Button>
          ))}
        </Group>
      </Group>
      <ConfirmDialog
        opened={asking !== null}
        title={asking?.confirm?.title ?? ''}
        message={asking?.confirm?.message ?? ''}
        confirmLabel={asking?.label}
        onCancel={() => setAsking(null)}
        onConfirm={() => {
          const action = asking;
          setAsking(null);
          action?.onClick();
        }}
      />
    </Paper>
  );
}

/** One chunk's outcome, as the server answered it. */
export interface ChunkResult<Id> {
  done: { id: Id; note?: string }[];
  failed: { id: Id; message: string }[];
}

export interface BulkJob<Id> {
  /** The dialog's title: 'Pay Now for 89 payouts'. */
  title: string;
  /** The rows to act on: the hand-picked ids, or every id the filter matches (read when the job starts). */
  items: () => Promise<Id[]>;
  /** Rows per request (the server takes at most 500). */
  chunkSize?: number;
  /**
   * Acts on one chunk. `key` is stable for this chunk of this job: send it as the Idempotency-Key,
   * so a retried chunk replays its first answer instead of acting twice.
   */
  runChunk: (ids: Id[], key: string) => Promise<ChunkResult<Id>>;
  /** Called once the job ends (refresh the list, clear the selection). */
  onFinished?: () => void;
  /** A row's name in the summary ('Asha Rao (100234)'); the id otherwise. */
  describe?: (id: Id) => string;
}

type Phase = 'idle' | 'loading' | 'running' | 'finished';

export interface BulkRunState<Id> {
  phase: Phase;
  title: string;
  total: number;
  processed: number;
  done: { id: Id; note?: string }[];
  failed: { id: Id; message: string }[];
  /** The job stopped on an error that was not about one row (network, permission). */
  stopped: string | null;
}

const idle: BulkRunState<never> = { phase: 'idle', title: '', total: 0, processed: 0, done: [], failed: [], stopped: null };

/**
 * Runs a bulk action chunk after chunk with its progress, and keeps the summary. A failed request
 * stops the job (its chunk can be retried with the same key); rows the server refused are listed
 * with their reasons and the job goes on.
 */
export function useBulkRun<Id extends string | number>() {
  const [state, setState] = useState<BulkRunState<Id>>(idle as BulkRunState<Id>);
  const job = useRef<{ spec: BulkJob<Id>; chunks: Id[][]; next: number; id: string } | null>(null);

  const runFrom = useCallback(async () => {
    const current = job.current;
    if (!current) return;
    setState((s) => ({ ...s, phase: 'running', stopped: null }));
    while (current.next < current.chunks.length) {
      const ids = current.chunks[current.next];
      try {
        const result = await current.spec.runChunk(ids, `${current.id}-${current.next}`);
        current.next += 1;
        setState((s) => ({
          ...s,
          processed: s.processed + ids.length,
          done: [...s.done, ...result.done],
          failed: [...s.failed, ...result.failed],
        }));
      } catch (err) {
        setState((s) => ({ ...s, phase: 'finished', stopped: errorMessage(err, 'The request failed') }));
        // What went through before the failure is shown too.
        current.spec.onFinished?.();
        return;
      }
    }
    setState((s) => ({ ...s, phase: 'finished' }));
    current.spec.onFinished?.();
  }, []);

  const start = useCallback(
    async (spec: BulkJob<Id>) => {
      setState({ ...(idle as BulkRunState<Id>), phase: 'loading', title: spec.title });
      let ids: Id[];
      try {
        ids = await spec.items();
      } catch (err) {
        setState((s) => ({ ...s, phase: 'finished', stopped: errorMessage(err, 'The rows could not be read') }));
        return;
      }
      const size = spec.chunkSize ?? 100;
      const chunks: Id[][] = [];
      for (let i = 0; i < ids.length; i += size) chunks.push(ids.slice(i, i + size));
      job.current = { spec, chunks, next: 0, id: crypto.randomUUID() };
      setState((s) => ({ ...s, total: ids.length }));
      await runFrom();
    },
    [runFrom],
  );

  const close = useCallback(() => {
    job.current = null;
    setState(idle as BulkRunState<Id>);
  }, []);

  return { state, start, resume: runFrom, close, describe: (id: Id) => job.current?.spec.describe?.(id) ?? String(id) };
}

export type BulkRun<Id extends string | number> = ReturnType<typeof useBulkRun<Id>>;

/** The progress and then the summary of a bulk action; it cannot be closed while a chunk is under way. */
export function BulkRunModal<Id extends string | number>({ run }: { run: BulkRun<Id> }) {
  const { state } = run;
  const busy = state.phase === 'loading' || state.phase === 'running';
  const percent = state.total === 0 ? 0 : Math.round((state.processed / state.total) * 100);
  return (
    <Modal
      opened={state.phase !== 'idle'}
      onClose={busy ? () => undefined : run.close}
      withCloseButton={!busy}
      closeOnEscape={!busy}
      closeOnClickOutside={false}
      title={state.title}
      centered
    >
      <Stack gap="sm">
        {state.phase === 'loading' && <Text size="sm">Reading the selected rows…</Text>}
        {state.phase !== 'loading' && (
          <>
            <Progress value={percent} aria-label="Progress" animated={busy} />
            <Text size="sm" role="status">
              {busy ? 'Working: ' : 'Finished: '}
              {formatCount(state.processed)} of {formatCount(state.total)} processed
            </Text>
          </>
        )}
        {state.phase === 'finished' && (
          <>
            <Text size="sm" fw={600}>
              {formatCount(state.done.length)} succeeded, {formatCount(state.failed.length)} did not
              {state.total - state.processed > 0 && `, ${formatCount(state.total - state.processed)} not processed`}
            </Text>
            {state.done.some((d) => d.note) && (
              <List size="sm">
                {summariseNotes(state.done).map(([note, count]) => (
                  <List.Item key={note}>
                    {note}: {formatCount(count)}
                  </List.Item>
                ))}
              </List>
            )}
            {state.failed.length > 0 && (
              <ScrollArea.Autosize mah={200}>
                <List size="sm" aria-label="Rows that did not succeed">
                  {state.failed.map((f) => (
                    <List.Item key={String(f.id)}>
                      {run.describe(f.id)}: {f.message}
                    </List.Item>
                  ))}
                </List>
              </ScrollArea.Autosize>
            )}
            {state.stopped && (
              <Alert color="red" title="Stopped">
                {state.stopped}
              </Alert>
            )}
          </>
        )}
        <Group justify="flex-end">
          {state.phase === 'finished' && state.stopped && state.processed < state.total && (
            <Button variant="default" onClick={() => void run.resume()}>
              Retry the rest
            </Button>
          )}
          <Button onClick={run.close} disabled={busy}>
            Done
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function summariseNotes<Id>(done: { id: Id; note?: string }[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const d of done) if (d.note) counts.set(d.note, (counts.get(d.note) ?? 0) + 1);
  return [...counts];
}
