import { sql } from 'drizzle-orm';
import type { ReplyOf } from '../../../../contract/endpoint.ts';
import type { runsApi } from '../../../../contract/income-runs.ts';
import { BANK_GATHER_LOCK } from '../../../db/books.ts';
import { rowsOf, type Db } from '../../../db/client.ts';
import type { LockRow } from '../../../db/rows.ts';
import { AppError } from '../../../lib/errors.ts';
import type { MoneyResult, MoneyContext } from '../../../lib/money/movement.ts';
import { holdForApproval, aboveThreshold } from '../../../lib/money/four-eyes.ts';
import type { MemberRange } from './kind.ts';
import { RUN_HANDLERS } from './kinds.ts';
import * as reversals from './reversal.repository.ts';
import * as repo from './runs.repository.ts';

/**
 * Reversing a completed run (issue 16), by compensating ledger entries, never by deleting: one row
 * per ledger row of the run (reversal_of = the original, same kind and batch, opposite sign,
 * run_id = the run; Pay Now lines written later on the run's Failure rows carry the run too and
 * are compensated with it). Per member the debits are given back in full and the credits taken
 * back as far as the balance then covers; what it can't cover is a shortfall (run_shortfalls and
 * the run's total), never a negative balance. Then the kind's `undo` (payout rows, memberships,
 * grants, ranks).
 *
 * It is worked range of members by range (`reversalChunk`, at most a chunk's worth of members with
 * ledger rows each, one transaction each, like a run's chunks): the request turns the run
 * 'reversing' and does the first range; a run that fits in it is 'reversed' when the request
 * answers, a larger one goes on in the background (the engine's workers, resumed after a crash)
 * and turns 'reversed' with its last range. Above the approval threshold (the run's net credit)
 * the request only files it for a second operator (202).
 */

/** What a reversal request carries (and the approval replays). */
export interface ReversalPayload {
  runId: number;
  remarks: string;
}

/** The advisory lock's first key for a reversal's ranges (the second is the run id). */
const REVERSAL_LOCK = 800_926;

/**
 * One range of a 'reversing' run's members, in the caller's transaction: compensates their ledger
 * rows, undoes the kind's rows of theirs, moves the cursor. Null when there is nothing to do here
 * (another copy holds the run, or it is not reversing); 'more' or 'reversed' otherwise.
 */
export async function reversalChunk(tx: Db, runId: number, size: number): Promise<{ next: 'more' | 'reversed'; done: reversals.Compensated } | null> {
  const [lock] = rowsOf<LockRow>(await tx.execute(sql`select pg_try_advisory_xact_lock(${REVERSAL_LOCK}, ${runId}::int) as locked`));
  if (!lock.locked) return null;
  // The run's row first (as Pay Now takes a payout's run before the payout: issue 24), so the two never deadlock.
  const run = await repo.runById(tx, runId, true);
  if (!run || run.status !== 'reversing' || run.cursors[0] === -1) return null;
  const after = run.cursors[0];
  const members: MemberRange = { after, upTo: await reversals.reversalRangeEnd(tx, runId, after, size) };
  // A bank-mode run's bank_payout lines are either gathered or reversed, never both: the gather
  // holds this lock exclusively (bank-transfers.repository.ts), a reversal range shares it.
  if (repo.scopeOf(run).settings?.payTo === 'bank') await tx.execute(sql`select pg_advisory_xact_lock_shared(${BANK_GATHER_LOCK}::int8)`);
  const done = await reversals.compensate(tx, runId, run.reversedBy ?? 0, members);
  await RUN_HANDLERS[run.kind].undo(tx, repo.scopeOf(run), members);
  if (!(await reversals.advanceReversal(tx, runId, members, done))) throw new AppError(409, `The reversal of run ${runId} moved on under this chunk`);
  return { next: members.upTo === null ? 'reversed' : 'more', done };
}

/**
 * POST /income/runs/:id/reverse (and its approval). `chunkSize`: the members with ledger rows a
 * range holds (the engine's chunk size). `background` is set when the run needs more ranges than
 * the request did: the caller sets the engine's workers going after the commit.
 */
export async function reverseRun(tx: Db, money: MoneyContext, payload: ReversalPayload, chunkSize: number): Promise<MoneyResult<ReplyOf<typeof runsApi.reverse>> & { background: boolean }> {
  const { runId, remarks } = payload;
  const run = await repo.runById(tx, runId, true);
  if (!run) throw new AppError(404, `Run ${runId} not found`);
  if (run.status !== 'completed') {
    throw new AppError(409, `Run ${runId} is ${run.status}: only a completed run can be reversed`);
  }
  if (await reversals.paidInRun(tx, runId, money.actorId)) {
    throw new AppError(403, 'This run paid your own wallet: another operator must reverse it');
  }
  const netPaise = await reversals.runNetPaise(tx, runId);
  if (aboveThreshold(money, Math.abs(netPaise))) {
    const pending = await reversals.pendingReversal(tx, runId);
    if (pending !== null) throw new AppError(409, `The reversal of run ${runId} already awaits approval (request ${pending})`);
    const held = await holdForApproval(tx, money, { kind: 'run_reversal', userId: money.makerId, amountPaise: Math.abs(netPaise), payload: { runId, remarks } });
    return { ...held, background: false };
  }
  await reversals.beginReversal(tx, runId, money.actorId, { remarks, approved: money.approved, makerId: money.makerId });
  const first = await reversalChunk(tx, runId, chunkSize);
  if (!first) throw new AppError(409, `Run ${runId} is being reversed by another request`);
  const after = (await repo.runById(tx, runId))!;
  const background = first.next === 'more';
  const { done } = first;
  const message = background
    ? `Run ${runId} is being reversed: its first ${done.members} member(s) are done and the rest follow in the background`
    : done.shortfallPaise > 0
      ? `Run ${runId} reversed; ${done.shortfallMembers} member(s) no longer had the money: a shortfall of ${(done.shortfallPaise / 100).toFixed(2)} is recorded`
      : `Run ${runId} reversed`;
  return {
    status: 200,
    background,
    body: { success: true, message, data: repo.toRun(after) },
    audit: {
      action: 'income_run_reversed',
      entity: 'income_run',
      entityId: runId,
      before: { status: 'completed', kind: run.kind, periodStart: run.periodStart, netPaise },
      after: { status: after.status, remarks, ...done, makerId: money.makerId, approved: money.approved },
    },
  };
}
