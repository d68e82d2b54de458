import { and, eq, sql, type SQL } from 'drizzle-orm';
import { paiseToRupees } from '../../../contract/common.ts';
import type { ApprovalKind, AwaitingApproval } from '../../../contract/approvals.ts';
import { rowsOf, type Db } from '../../db/client.ts';
import { operatorMemberDaily, type moneyRequests, type operatorDailyCredits } from '../../db/schema/money.ts';
import { AppError } from '../errors.ts';
import type { DailyCount, Direction, MoneyContext, MoneyDone } from './movement.ts';

type Credited = Pick<typeof operatorDailyCredits.$inferSelect, 'paise' | 'debitPaise'>;
type RequestId = Pick<typeof moneyRequests.$inferSelect, 'id'>;

const inr = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' });
export const formatRupees = (paise: number) => inr.format(paiseToRupees(paise));

/** Nobody moves money into or out of their own wallet, whatever their permissions. */
export function refuseOwnWallet(ctx: MoneyContext, userId: number): void {
  if (ctx.actorId === userId) {
    throw new AppError(403, 'You cannot move money into or out of your own wallet: another operator must do it');
  }
}

/** One movement alone above the threshold (a run's reversal, an activation paid outside judged by its cap). */
export function aboveThreshold(ctx: MoneyContext, paise: number): boolean {
  return !ctx.approved && paise > ctx.approvalThresholdPaise;
}

/** The business day (Asia/Kolkata) of the transaction, as the daily counters key it. */
const TODAY = sql`(now() at time zone 'Asia/Kolkata')::date`;

/**
 * The member whose wallet a movement names, as the guarded statements below select it: live, and
 * a member's account (staff, the administrator included, hold no wallet: issue 22).
 */
const MEMBER_WALLET = (userId: number) => sql`
  select user_id from users where user_id = ${userId} and deleted_at is null and not can_sign_in`;

type Reserved = { member: boolean; reserved: boolean };
/** How many daily counts the last statement made (0: over the limit). */
type Counted = { counted: number };

/**
 * Whether a movement of `paise` to or from `userId` waits for a checker (issue 22: limits that
 * cannot be split). The threshold applies to the sum of what the maker moved to and from this
 * member today, credits and debits alike: the movement that would take the sum past it waits.
 * A movement under it is reserved at once, in the caller's transaction, by one guarded upsert that
 * locks the (maker, member, day) row, so 200 small movements at once can never all slip under
 * the threshold; a movement that is refused later rolls its reservation back with it. An approved
 * movement is added without a check (a checker has seen it).
 *
 * The same statement finds the member: a `userId` that is not a live member's wallet answers
 * "Member N not found" (404) before anything is reserved or filed, so a movement needs no lookup
 * of its own for that (one round trip fewer on every money movement).
 */
export async function needsApproval(tx: Db, ctx: MoneyContext, userId: number, paise: number): Promise<boolean> {
  const above = !ctx.approved && paise > ctx.approvalThresholdPaise;
  const reserve = ctx.approved
    ? sql`insert into operator_member_daily (actor_id, user_id, day, paise) select ${ctx.makerId}, user_id, ${TODAY}, ${paise} from member
          on conflict (actor_id, user_id, day) do update set paise = operator_member_daily.paise + excluded.paise
          returning paise`
    : sql`insert into operator_member_daily (actor_id, user_id, day, paise) select ${ctx.makerId}, user_id, ${TODAY}, ${paise} from member
          on conflict (actor_id, user_id, day) do update set paise = operator_member_daily.paise + excluded.paise
           where operator_member_daily.paise + excluded.paise <= ${ctx.approvalThresholdPaise}
          returning paise`;
  const [found] = rowsOf<Reserved>(await tx.execute(above
    ? sql`select true as member, false as reserved from (${MEMBER_WALLET(userId)}) member`
    : sql`with member as (${MEMBER_WALLET(userId)}), reservation as (${reserve})
          select exists (select 1 from member) as member, exists (select 1 from reservation) as reserved`));
  if (!found?.member) throw new AppError(404, `Member ${userId} not found`);
  return !ctx.approved && !found.reserved;
}

/** Why a movement under the threshold alone waits: what the maker already moved for the member today. */
export async function sumReason(tx: Db, ctx: MoneyContext, userId: number, paise: number): Promise<string | undefined> {
  if (paise > ctx.approvalThresholdPaise) return undefined;
  const moved = await movedToday(tx, ctx.makerId, userId);
  return `You already moved ${formatRupees(moved)} for member ${userId} today: with this ${formatRupees(paise)} it passes the approval threshold of ${formatRupees(ctx.approvalThresholdPaise)}, so this request awaits approval by a second operator`;
}

/** What the maker moved to and from `userId` today (paise). */
export async function movedToday(tx: Db, makerId: number, userId: number): Promise<number> {
  const [row] = await tx.select({ paise: operatorMemberDaily.paise }).from(operatorMemberDaily)
    .where(and(eq(operatorMemberDaily.actorId, makerId), eq(operatorMemberDaily.userId, userId), eq(operatorMemberDaily.day, TODAY)));
  return row ? Number(row.paise) : 0;
}

const limitOf = (ctx: MoneyContext, direction: Direction) => (direction === 'credit' ? ctx.dailyCreditLimitPaise : ctx.dailyDebitLimitPaise);

function overLimit(ctx: MoneyContext, direction: Direction, paise: number, usedPaise: number): AppError {
  const limit = limitOf(ctx, direction);
  const left = Math.max(0, limit - usedPaise);
  const whose = ctx.makerId === ctx.actorId ? 'your' : 'the requesting operator\u2019s';
  return new AppError(
    403,
    `This ${direction} of ${formatRupees(paise)} would pass ${whose} daily ${direction} limit of ${formatRupees(limit)}: ${formatRupees(left)} is left today`,
  );
}

/** What an operator credited and debited today (paise). */
export async function operatorDay(tx: Db, makerId: number): Promise<{ credited: number; debited: number }> {
  const [row] = rowsOf<Credited>(await tx.execute(sql`
    select paise, debit_paise as "debitPaise" from operator_daily_credits where actor_id = ${makerId} and day = ${TODAY}`));
  return { credited: row ? Number(row.paise) : 0, debited: row ? Number(row.debitPaise) : 0 };
}

const usedOf = (day: { credited: number; debited: number }, direction: Direction) => (direction === 'credit' ? day.credited : day.debited);

/** Refuses now a movement that could not fit in what the maker may still credit (or debit) today (nothing is reserved). */
export async function refuseOverDailyLimit(tx: Db, ctx: MoneyContext, paise: number, direction: Direction = 'credit'): Promise<void> {
  const used = usedOf(await operatorDay(tx, ctx.makerId), direction);
  if (used + paise > limitOf(ctx, direction)) throw overLimit(ctx, direction, paise, used);
}

/**
 * The maker's counter as one guarded upsert: a row comes back only when the amount fits under the
 * limit (none at all when it alone is above it). The upsert locks the maker's row, so two
 * concurrent movements can never both slip under the limit.
 */
function counterUpsert({ money, paise, direction }: DailyCount): SQL {
  const limit = limitOf(money, direction);
  if (paise > limit) return sql`select 1 where false`;
  return direction === 'credit'
    ? sql`insert into operator_daily_credits (actor_id, day, paise) values (${money.makerId}, ${TODAY}, ${paise})
          on conflict (actor_id, day) do update set paise = operator_daily_credits.paise + excluded.paise
           where operator_daily_credits.paise + excluded.paise <= ${limit}
          returning paise`
    : sql`insert into operator_daily_credits (actor_id, day, debit_paise) values (${money.makerId}, ${TODAY}, ${paise})
          on conflict (actor_id, day) do update set debit_paise = operator_daily_credits.debit_paise + excluded.debit_paise
           where operator_daily_credits.debit_paise + excluded.debit_paise <= ${limit}
          returning debit_paise`;
}

/** The refusal of a count that did not fit: what the maker may still move today, read now. */
async function refuseUncounted(tx: Db, { money, paise, direction }: DailyCount): Promise<never> {
  throw overLimit(money, direction, paise, usedOf(await operatorDay(tx, money.makerId), direction));
}

/** Adds a posted credit (or debit) to the maker's total of the day, in the caller's transaction. */
export async function countDailyCredit(tx: Db, ctx: MoneyContext, paise: number, direction: Direction = 'credit'): Promise<void> {
  const count: DailyCount = { money: ctx, paise, direction };
  if (rowsOf(await tx.execute(counterUpsert(count))).length === 0) await refuseUncounted(tx, count);
}

/** Counts a movement's daily count, if it has one (a movement's last statement). */
export async function countLast(tx: Db, count: DailyCount | undefined): Promise<void> {
  if (count) await countDailyCredit(tx, count.money, count.paise, count.direction);
}

/**
 * Writes a movement's last rows, `writes` (data-modifying CTEs: `a as (insert …), b as (update …)`,
 * the audit row and the idempotency answer), in one statement with the movement's daily count, if
 * any: one round trip, and the counter's row is still locked by the transaction's last statement.
 * Over the limit it refuses (throws), and nothing of the movement is kept.
 */
export async function countingLast(tx: Db, count: DailyCount | undefined, writes: SQL): Promise<void> {
  const [row] = rowsOf<Counted>(await tx.execute(count
    ? sql`with ${writes}, counted as (${counterUpsert(count)}) select (select count(*) from counted)::int as counted`
    : sql`with ${writes} select 1 as counted`));
  if (Number(row.counted) === 0) await refuseUncounted(tx, count!);
}

export interface HeldMovement {
  kind: ApprovalKind;
  /** The member whose money moves; null for a change that names none (a plan, the settings). */
  userId: number | null;
  /** The amount; for a compensation change its projected cost. */
  amountPaise: number;
  /**
   * What the approval replays: the original request body, and the path's own ids. A `details`
   * entry is what the checker is shown beside it (before and after, the projected cost).
   */
  payload: Record<string, unknown>;
  /** Why it waits, when not simply because it is above the threshold. */
  reason?: string;
}

/**
 * Stores a movement above the threshold as a pending request instead of moving money: the
 * endpoint answers 202 with the request's id (and the idempotency wrapper stores that answer,
 * so a retry gets the same id).
 */
export async function holdForApproval(tx: Db, ctx: MoneyContext, held: HeldMovement): Promise<MoneyDone<AwaitingApproval>> {
  const [created] = rowsOf<RequestId>(await tx.execute(sql`
    insert into money_requests (kind, user_id, amount_paise, payload, maker_id)
    values (${held.kind}, ${held.userId}, ${held.amountPaise}, ${JSON.stringify(held.payload)}::jsonb, ${ctx.makerId})
    returning id`));
  const approvalId = created.id;
  return {
    status: 202,
    body: {
      success: true,
      message: held.reason ?? `Above the approval threshold of ${formatRupees(ctx.approvalThresholdPaise)}: this request awaits approval by a second operator`,
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
