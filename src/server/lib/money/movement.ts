import type { AuditEntry } from '../audit.ts';
import { actorId, type Ctx } from '../context.ts';

/**
 * The shape every money movement shares (docs/structure.md, "A money movement"): who moves it and
 * under which rules (MoneyContext), and what it answers (MoneyResult).
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

/**
 * What a money handler answers, stored with its key so a retry gets the very same answer, and
 * what it did for the audit log: the wrapper writes that row in the same transaction (with the
 * key's answer, in one statement), so no money movement goes unaudited.
 */
export interface MoneyResult {
  status: number;
  body: unknown;
  audit: AuditEntry;
  /** Work the movement leaves to the background once it has committed (a long reversal's next ranges). */
  afterCommit?: () => void;
}
