import type { z } from 'zod';
import type { ApprovalKind } from '../../../contract/approvals.ts';
import type { PermissionName } from '../../../contract/permissions.ts';
import type { Db } from '../../db/client.ts';
import type { AuditEntry } from '../audit.ts';
import { actorId, type Ctx } from '../context.ts';

/**
 * The shape every money movement shares (docs/structure.md, "A money movement"): who moves it and
 * under which rules (MoneyContext), what it answers (MoneyResult), and how it declares itself to
 * the approvals (Movement, listed in movements.ts).
 */

/**
 * Who moves money and under which rules. On the direct path actor and maker are the signed-in
 * operator; when a checker approves a stored request the actor is the checker (the ledger row
 * names who released the money) and the maker stays the operator who asked for it (their daily
 * credit limit pays for it).
 */
export interface MoneyContext {
  actorId: number;
  makerId: number;
  /** True only while an approved request is replayed: the threshold was passed by a checker. */
  approved: boolean;
  /** The approval being replayed (issue 25: its transfers name it as their cause). */
  approvalId?: number;
  approvalThresholdPaise: number;
  dailyCreditLimitPaise: number;
  dailyDebitLimitPaise: number;
}

/** The direct path's rules for the signed-in operator of `ctx`. */
export function moneyContext(ctx: Ctx): MoneyContext {
  const { approvalThresholdPaise, dailyCreditLimitPaise, dailyDebitLimitPaise } = ctx.config;
  const actor = actorId(ctx);
  return { actorId: actor, makerId: actor, approved: false, approvalThresholdPaise, dailyCreditLimitPaise, dailyDebitLimitPaise };
}

/** The answer of a movement that was done: what the approval records and shows the checker. */
export type MoneyReply<D = unknown> = { success: true; message: string; data: D };

/** The success statuses a money endpoint answers with (201 created, 202 filed for a checker). */
export type MoneyDoneStatus = 200 | 201 | 202;
/** The statuses of a refusal a movement answers (and commits) instead of throwing it. */
export type MoneyRefusalStatus = 400 | 403 | 404 | 409 | 422;

/** The body of an error answer, as every endpoint's errors are (`errorResponse` in the contract). */
export interface MoneyRefusal {
  success: false;
  message: string;
}

interface Outcome<S, B> {
  status: S;
  body: B;
  audit: AuditEntry;
  /** Work the movement leaves to the background once it has committed (a long reversal's next ranges). */
  afterCommit?: () => void;
  /**
   * What the movement adds to the maker's daily counter, which whoever commits the movement counts
   * last, with everything else it writes (the audit row, the idempotency answer: one statement on
   * the keyed path, four-eyes.ts `countingLast`): the counter is one row that every movement of
   * that operator locks until the commit, so it is held as briefly as can be. It may still refuse
   * (over the daily limit), and then nothing of the movement is kept.
   */
  dailyCount?: DailyCount;
}

/** Which of the maker's daily limits a movement counts against. */
export type Direction = 'credit' | 'debit';

/** An amount to add to the maker's credited (or debited) total of the day, under its limit. */
export interface DailyCount {
  money: MoneyContext;
  paise: number;
  direction: Direction;
}

/** A movement that was done (or filed for a checker): `T` is the endpoint's reply. */
export type MoneyDone<T> = Outcome<MoneyDoneStatus, T>;

/**
 * A refusal that must still commit what it wrote (an approval that found its request expired
 * marks it so). A refusal that writes nothing throws an AppError instead, which rolls back.
 */
export type MoneyRefused = Outcome<MoneyRefusalStatus, MoneyRefusal>;

/**
 * What a money handler answers, stored with its key so a retry gets the very same answer, and
 * what it did for the audit log: the wrapper writes that row in the same transaction (with the
 * key's answer, in one statement), so no money movement goes unaudited. `T` is the reply the
 * endpoint declares in the contract (`idempotent` hands it to the route, which must declare it).
 */
export type MoneyResult<T> = MoneyDone<T> | MoneyRefused;

/** Whether a movement answered a refusal (status ≥ 400). */
export const isRefused = <T>(result: MoneyResult<T>): result is MoneyRefused => result.status >= 400;

/**
 * When the direct path files a movement for a second operator instead of doing it (its execute
 * applies the rule with four-eyes.ts; this says which rule it is, for the reader and the docs).
 * - `summed`: when what the maker moved to and from the member today passes the approval threshold
 *   (needsApproval), and it counts against the maker's daily credit or debit limit;
 * - `threshold`: when this movement alone is above the threshold (aboveThreshold);
 * - `always`: every time (a lever that makes money at scale, a number where money goes).
 */
export interface FourEyesPolicy {
  holds: 'summed' | 'threshold' | 'always';
  /** The maker's daily limit it counts against, if any. */
  dailyLimit?: 'credit' | 'debit';
  /** The rule in a sentence. */
  rule: string;
}

/**
 * A kind of money movement that may wait for a second operator (an ApprovalKind), declared in the
 * module that owns it (`<module>.movements.ts`) and listed once in movements.ts. The approvals
 * store its request (holdForApproval) and, when a checker approves it, parse the stored payload
 * with `input` and run `execute` with money.approved: the very service function of the direct
 * path, so the approval can do only what the endpoint accepts.
 */
/** What an approval records of a movement's answer and shows the checker (`result`): an object. */
export type MovementReply = MoneyReply<Record<string, unknown>>;

export interface Movement<K extends ApprovalKind = ApprovalKind, I = unknown, R extends MovementReply = MovementReply> {
  kind: K;
  /**
   * The permission its direct path's route requires (the contract endpoint's access): a request
   * whose maker no longer holds it expires instead of being approved.
   */
  permission: PermissionName;
  /** The stored request's payload, as the direct path filed it. */
  input: z.ZodType<I>;
  fourEyes: FourEyesPolicy;
  /**
   * Why a pending request of this kind can no longer be approved (a change whose day has come),
   * or null; read from the payload as it was stored, before it is parsed. The approvals check the
   * maker and the member themselves.
   */
  expiry?(tx: Db, payload: unknown): Promise<string | null>;
  /** The movement, replayed in the approval's transaction: `checker` is the approving operator's ctx. */
  execute(tx: Db, money: MoneyContext, input: I, checker: Ctx): Promise<MoneyResult<R>>;
}

/** Declares a movement; the input and reply types are inferred from its schema and its execute. */
export const defineMovement = <K extends ApprovalKind, I, R extends MovementReply>(movement: Movement<K, I, R>): Movement<K, I, R> => movement;

/** The registry's type: one movement for every ApprovalKind (a new kind does not compile without its movement). */
export type Movements = { readonly [K in ApprovalKind]: Movement<K> };
