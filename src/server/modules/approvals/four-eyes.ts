import { sql } from 'drizzle-orm';
import { paiseToRupees } from '../../../contract/common.ts';
import type { ApprovalKind } from '../../../contract/approvals.ts';
import { rowsOf, type Db } from '../../db/client.ts';
import type { moneyRequests, operatorDailyCredits } from '../../db/schema/money.ts';
import { actorId, type Ctx } from '../../lib/context.ts';
import { AppError } from '../../lib/errors.ts';
import type { MoneyResult } from '../../lib/idempotency.ts';

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
  approvalThresholdPaise: number;
  dailyCreditLimitPaise: number;
}

/** The direct path's rules for the signed-in operator of `ctx`. */
export function moneyContext(ctx: Ctx): MoneyContext {
  const { approvalThresholdPaise, dailyCreditLimitPaise } = ctx.config;
  const actor = actorId(ctx);
  return { actorId: actor, makerId: actor, approved: false, approvalThresholdPaise, dailyCreditLimitPaise };
}

type Credited = Pick<typeof operatorDailyCredits.$inferSelect, 'paise'>;
type RequestId = Pick<typeof moneyRequests.$inferSelect, 'id'>;

const inr = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' });
export const formatRupees = (paise: number) => inr.format(paiseToRupees(paise));

/** Nobody moves money into or out of their own wallet, whatever their permissions. */
export function refuseOwnWallet(ctx: MoneyContext, userId: number): void {
  if (ctx.actorId === userId) {
    throw new AppError(403, 'You cannot move money into or out of your own wallet: another operator must do it');
  }
}

export function needsApproval(ctx: MoneyContext, paise: number): boolean {
  return !ctx.approved && paise > ctx.approvalThresholdPaise;
}

/** The business day (Asia/Kolkata) of the transaction, as the daily credit counter keys it. */
const TODAY = sql`(now() at time zone 'Asia/Kolkata')::date`;

function overLimit(ctx: MoneyContext, paise: number, usedPaise: number): AppError {
  const left = Math.max(0, ctx.dailyCreditLimitPaise - usedPaise);
  const whose = ctx.makerId === ctx.actorId ? 'your' : 'the requesting operator\u2019s';
  return new AppError(
    403,
    `This credit of ${formatRupees(paise)} would pass ${whose} daily credit limit of ${formatRupees(ctx.dailyCreditLimitPaise)}: ${formatRupees(left)} is left today`,
  );
}

async function creditedToday(tx: Db, makerId: number): Promise<number> {
  const [row] = rowsOf<Credited>(await tx.execute(sql`
    select paise from operator_daily_credits where actor_id = ${makerId} and day = ${TODAY}`));
  return row ? row.paise : 0;
}

/** Refuses now a credit that could not fit in what the maker may still credit today (nothing is reserved). */
export async function refuseOverDailyLimit(tx: Db, ctx: MoneyContext, paise: number): Promise<void> {
  const used = await creditedToday(tx, ctx.makerId);
  if (used + paise > ctx.dailyCreditLimitPaise) throw overLimit(ctx, paise, used);
}

/**
 * Adds a posted credit to the maker's total of the day, in the caller's transaction. The guarded
 * upsert locks the maker's row, so two concurrent credits can never both slip under the limit.
 */
export async function countDailyCredit(tx: Db, ctx: MoneyContext, paise: number): Promise<void> {
  const limit = ctx.dailyCreditLimitPaise;
  if (paise <= limit) {
    const counted = rowsOf(await tx.execute(sql`
      insert into operator_daily_credits (actor_id, day, paise) values (${ctx.makerId}, ${TODAY}, ${paise})
      on conflict (actor_id, day) do update set paise = operator_daily_credits.paise + excluded.paise
       where operator_daily_credits.paise + excluded.paise <= ${limit}
      returning paise`));
    if (counted.length > 0) return;
  }
  throw overLimit(ctx, paise, await creditedToday(tx, ctx.makerId));
}

export interface HeldMovement {
  kind: ApprovalKind;
  userId: number;
  amountPaise: number;
  /** What the approval replays: the original request body, and the path's own ids. */
  payload: Record<string, unknown>;
}

/**
 * Stores a movement above the threshold as a pending request instead of moving money: the
 * endpoint answers 202 with the request's id (and the idempotency wrapper stores that answer,
 * so a retry gets the same id).
 */
export async function holdForApproval(tx: Db, ctx: MoneyContext, held: HeldMovement): Promise<MoneyResult> {
  const [created] = rowsOf<RequestId>(await tx.execute(sql`
    insert into money_requests (kind, user_id, amount_paise, payload, maker_id)
    values (${held.kind}, ${held.userId}, ${held.amountPaise}, ${JSON.stringify(held.payload)}::jsonb, ${ctx.makerId})
    returning id`));
  const approvalId = created.id;
  return {
    status: 202,
    body: {
      success: true,
      message: `Above the approval threshold of ${formatRupees(ctx.approvalThresholdPaise)}: this request awaits approval by a second operator`,
      data: { approvalId, status: 'pending' },
    },
    audit: {
      action: 'money_request_created',
      entity: 'money_request',
      entityId: approvalId,
      after: { kind: held.kind, userId: held.userId, amountPaise: held.amountPaise, payload: held.payload, makerId: ctx.makerId, status: 'pending' },
    },
  };
}

/** One pending request per payout or withdrawal request: a second would pay or approve it twice. */
export async function refuseSecondPending(tx: Db, kind: 'pay_payout' | 'withdrawal_approval', field: 'payoutId' | 'withdrawalId', id: number) {
  const [pending] = rowsOf<RequestId>(await tx.execute(sql`
    select id from money_requests
     where status = 'pending' and kind = ${kind} and payload->>${field} = ${String(id)} limit 1`));
  if (pending) {
    const what = kind === 'pay_payout' ? `Payout ${id}` : `Withdrawal request ${id}`;
    throw new AppError(409, `${what} already awaits approval (request ${pending.id})`);
  }
}
