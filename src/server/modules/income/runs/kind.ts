import { sql, type SQL } from 'drizzle-orm';
import type { IncomeSettings } from '../../../../contract/income.ts';
import type { RunKind } from '../../../../contract/income-runs.ts';
import type { Db } from '../../../db/client.ts';

/**
 * What each kind of run (daily payout, royalty, referral bonus, monthly reward, rank promotion)
 * tells the engine (engine.ts). The engine owns the run row, exactly-once, the advisory lock, the
 * chunk loop with progress, resume after a crash, catch-up and the generic part of a reversal
 * (a compensating ledger row for every ledger row the run wrote); a kind owns its computation.
 *
 * Days are yyyy-mm-dd business days in Asia/Kolkata; money is paise; every SQL is set-based (one
 * statement per chunk, never a loop over members in TypeScript).
 */

/** A run's period, both days inclusive. */
export interface RunPeriod {
  start: string;
  end: string;
}

/** What a run knows while it works: fixed at its start, stored on the run row. */
export interface RunScope {
  runId: number;
  kind: RunKind;
  period: RunPeriod;
  settings: IncomeSettings;
  settingsVersionId: number | null;
  /** What `begin` fixed for the whole run (e.g. the royalty pool and the weights' sum). */
  state: Record<string, unknown>;
  /** The income batch the run's credits carry (royalty and rewards), or null. */
  batchId: number | null;
}

/** Counts and money of a chunk, a run or a preview (paise). */
export interface Tally {
  /** Units gone through (memberships, members). */
  units: number;
  /** Members credited, Failure rows written (or members promoted, for rank promotion). */
  paid: number;
  failed: number;
  grossPaise: number;
  deductionsPaise: number;
  /** The net amount of Failure rows (what Pay Now would pay). */
  failedPaise: number;
  /** Of the deductions, the TDS (daily payout only; issue 24 shows it apart from the admin charge). */
  tdsPaise?: number;
}

export const NO_TALLY: Tally = { units: 0, paid: 0, failed: 0, grossPaise: 0, deductionsPaise: 0, failedPaise: 0 };

export interface RunBegin {
  /** Units the run will go through, for the progress bar (may be an estimate, never 0 if work exists). */
  total: number;
  /** Stored on the run and handed to every chunk (scope.state). */
  state: Record<string, unknown>;
  /** When the run's credits show on Royalty / Reward Income: the batch to create for it. */
  batch?: { kind: 'royalty' | 'reward'; rewardType: string | null; runDate: string };
}

export interface RunKindHandler {
  kind: RunKind;
  /** The period of this kind that holds `day` (daily: the day; royalty: its month or ISO week; …). */
  periodOf(day: string, settings: IncomeSettings): RunPeriod;
  /**
   * A kind whose period depends on the settings (royalty: monthly or weekly) names the period type
   * the settings choose; the engine then chains its periods so that two never overlap when the
   * type changes (periods.ts). Absent: the period depends on the day only.
   */
  periodType?(settings: IncomeSettings): string;
  /**
   * Why the settings do not pay this period (a manual start or a preview is refused with it), or
   * null. Daily payout: a Saturday or Sunday with "Pay on weekends" off.
   */
  unpaid?(period: RunPeriod, settings: IncomeSettings): string | null;
  /**
   * Whether a scheduled run of the period is due (daily payout: a business day whose payout time
   * has passed; monthly kinds: the month is over). `now` is the current IST day and HH:MM.
   */
  isDue(period: RunPeriod, settings: IncomeSettings, now: { day: string; time: string }): boolean;
  /** In the run's first transaction: what the whole run uses. Writes nothing but reads. */
  begin(tx: Db, scope: Omit<RunScope, 'state' | 'batchId'>): Promise<RunBegin>;
  /**
   * One chunk, in the caller's transaction: the units with id > cursor (and ≤ upTo, the end of
   * the slice, when given), at most `limit` of them, in id order. Every ledger row carries
   * run_id = scope.runId (and batch_id = scope.batchId when set). Returns the last unit's id as the
   * new cursor; `done` when nothing is left (in the slice).
   */
  step(tx: Db, scope: RunScope, cursor: number, limit: number, upTo?: number): Promise<Tally & { cursor: number; done: boolean }>;
  /**
   * A kind whose units are independent of each other (no two units write the same member) may be
   * worked in slices side by side: the ids that end each slice but the last, splitting `total`
   * units into `parts` about equal slices (fewer when there are few units). In the run's first
   * transaction.
   */
  split?(tx: Db, scope: Omit<RunScope, 'state' | 'batchId'>, total: number, parts: number): Promise<number[]>;
  /** The run's counts and totals, computed without writing anything (same rules as step). */
  preview(db: Db, scope: Omit<RunScope, 'runId' | 'batchId'>): Promise<Tally>;
  /**
   * A reversal's part that is not ledger (the engine has already posted the compensating ledger
   * rows of these members): payout rows, memberships' earned totals, reward grants, rank changes,
   * of the members in `members` only. In the reversal chunk's transaction.
   */
  undo(tx: Db, scope: RunScope, members: MemberRange): Promise<void>;
}

/** A reversal chunk's members: user ids after `after`, up to `upTo` inclusive (null: no end). */
export interface MemberRange {
  after: number;
  upTo: number | null;
}

/** `column` (a user id) within the range, as SQL. */
export const inRange = (column: SQL, members: MemberRange): SQL =>
  members.upTo === null ? sql`${column} > ${members.after}::int8` : sql`${column} > ${members.after}::int8 and ${column} <= ${members.upTo}::int8`;
