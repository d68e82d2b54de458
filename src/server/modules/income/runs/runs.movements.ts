import { z } from 'zod';
import { runKind, runsApi } from '../../../../contract/income-runs.ts';
import { defineMovement } from '../../../lib/money/movement.ts';
import { afterReversal, runChunkSize } from './engine.ts';
import { reverseRun } from './reversal.ts';
import { replayRerun } from './runs.service.ts';

/** The income runs' movements (docs/structure.md, "A money movement"): a run's reversal, a reversed period run again. */

export const runReversal = defineMovement({
  kind: 'run_reversal',
  permission: runsApi.reverse.access,
  input: z.object({ runId: z.coerce.number(), remarks: z.coerce.string() }),
  fourEyes: { holds: 'threshold', rule: 'Waits when the run\u2019s net credit is above the approval threshold; one pending reversal per run' },
  execute: async (tx, money, payload, checker) =>
    afterReversal(checker.database, payload.runId, await reverseRun(tx, money, payload, runChunkSize(checker.database))),
});

export const runRerun = defineMovement({
  kind: 'run_rerun',
  permission: runsApi.start.access,
  input: z.object({ kind: runKind, date: z.string() }),
  fourEyes: { holds: 'always', rule: 'A period whose run was reversed runs again only when a second operator approves (shown with the preview of what it would pay)' },
  execute: (tx, money, input, checker) => replayRerun(tx, checker, money, input),
});
