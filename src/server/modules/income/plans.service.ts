import { isoToWireDate, MAX_RUPEES, rupeesToPaise } from '../../../contract/common.ts';
import { percentToBp, planBody, type Plan, type plansApi, type PlanVersion } from '../../../contract/income.ts';
import type { ReplyOf } from '../../../contract/endpoint.ts';
import type { z } from 'zod';
import type { CompensationBounds } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Ctx } from '../../lib/context.ts';
import { AppError } from '../../lib/errors.ts';
import type { MoneyResult, MoneyContext } from '../../lib/money/movement.ts';
import { formatRupees, holdForApproval } from '../../lib/money/four-eyes.ts';
import * as repo from './plans.repository.ts';
import { changeDetails, planProjection, type Projection } from './projection.ts';
import { addDays, dailyPaiseOf, istToday, settingsOn } from './settings.ts';

/**
 * Membership plans (issue 16). A plan's terms are versioned by effective_from (a business day in
 * Asia/Kolkata): a new plan's first version may start today, a change starts tomorrow at the
 * earliest, a version in force is never edited, and saving again for the same future day
 * replaces that scheduled version. The NAME is not versioned: it is the plan's (membership_plans),
 * so a rename shows at once, on every version; memberships keep the terms they were sold with.
 */

type PlanInput = z.output<typeof planBody>;

const NOT_FOUND = 'Plan not found';

/** The refusal of a name another plan has (case and blanks ignored), said on the name field. */
function duplicate(name: string): AppError {
  const message = `A plan named ${name} already exists`;
  return new AppError(409, message, { errors: [{ path: 'body.name', field: 'name', message }] });
}

function refused(field: string, message: string): AppError {
  return new AppError(400, message, { errors: [{ path: `body.${field}`, field, message }] });
}

/**
 * The version's stored terms: a percent as basis points of the price, rupees as paise. Refuses
 * terms past the deployment's bounds (issue 22: what no operator can save, whoever approves).
 */
function termsOf(input: PlanInput, effectiveFrom: string, createdBy: number | null, bounds: CompensationBounds): repo.PlanVersionValues {
  if (input.dailyMode === 'fixed' && input.dailyValue > MAX_RUPEES) {
    throw refused('dailyValue', `Daily payout must not exceed ${MAX_RUPEES}`);
  }
  const pricePaise = rupeesToPaise(input.price);
  const dailyValue = input.dailyMode === 'percent' ? percentToBp(input.dailyValue) : rupeesToPaise(input.dailyValue);
  const dailyPaise = dailyPaiseOf(input.dailyMode, dailyValue, pricePaise);
  if (dailyPaise < 1) {
    throw refused('dailyValue', 'Daily payout must come to at least ₹0.01 a day (a percentage of this price rounds down to 0)');
  }
  const maxDaily = Math.floor((pricePaise * bounds.dailyPercent) / 100);
  if (dailyPaise > maxDaily) {
    throw refused('dailyValue', `Daily payout must be at most ${bounds.dailyPercent} % of the price (${formatRupees(maxDaily)} a day): the limit set for this installation`);
  }
  const maxCap = Math.floor(pricePaise * bounds.capMultiple);
  if (rupeesToPaise(input.cap) > maxCap) {
    throw refused('cap', `Total payout cap must be at most ${bounds.capMultiple} times the price (${formatRupees(maxCap)}): the limit set for this installation`);
  }
  return {
    effectiveFrom, pricePaise, dailyMode: input.dailyMode, dailyValue, durationDays: input.durationDays,
    capPaise: rupeesToPaise(input.cap), active: input.active, createdBy,
  };
}

/** Runs `write`, turning a race on membership_plans_name_uq into the same 409 as the check. */
async function uniquely<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    const cause = (err as { cause?: { code?: string; constraint?: string } }).cause ?? (err as { code?: string; constraint?: string });
    if (cause?.code === '23505' && cause.constraint === 'membership_plans_name_uq') throw duplicate(name);
    throw err;
  }
}

async function planOf(db: Db, planId: number, today: string): Promise<Plan> {
  const [plan] = await repo.listPlans(db, today, planId);
  if (!plan) throw new AppError(404, NOT_FOUND);
  return plan;
}

export async function listPlans(ctx: Ctx): Promise<Plan[]> {
  const { db } = ctx.database;
  return repo.listPlans(db, await istToday(db));
}

export async function planVersions(ctx: Ctx, planId: number): Promise<PlanVersion[]> {
  const { db } = ctx.database;
  if (!(await repo.planExists(db, planId))) throw new AppError(404, NOT_FOUND);
  return repo.planVersions(db, planId);
}

/** The plan's body as the request sent it (dd-mm-yyyy), what an approval parses again. */
const wireBody = (input: PlanInput, from: string) => ({ ...input, effectiveFrom: isoToWireDate(from) });

/** The terms a checker reads: every field, in rupees. */
function shown(v: repo.PlanVersionValues, name: string) {
  return {
    name, effectiveFrom: isoToWireDate(v.effectiveFrom), price: formatRupees(v.pricePaise),
    daily: v.dailyMode === 'percent' ? `${v.dailyValue / 100} % of the price` : `${formatRupees(v.dailyValue)} a day`,
    dailyAmount: formatRupees(dailyPaiseOf(v.dailyMode, v.dailyValue, v.pricePaise)), durationDays: v.durationDays,
    cap: formatRupees(v.capPaise), active: v.active ? 'Yes' : 'No',
  };
}

function shownVersion(v: PlanVersion) {
  return {
    name: v.name, effectiveFrom: v.effectiveFrom, price: formatRupees(rupeesToPaise(v.price)),
    daily: v.dailyMode === 'percent' ? `${v.dailyValue} % of the price` : `${formatRupees(rupeesToPaise(v.dailyValue))} a day`,
    dailyAmount: formatRupees(rupeesToPaise(v.dailyAmount)), durationDays: v.durationDays, cap: formatRupees(rupeesToPaise(v.cap)),
    active: v.active ? 'Yes' : 'No',
  };
}

const waits = (what: string, projection: Projection) =>
  `${what} awaits approval by a second operator with money_approve (projected cost over its first 30 days: ${formatRupees(projection.totalPaise)})`;

/**
 * POST /income/plans: a new plan, its first version from effectiveFrom (default today; a past
 * day is refused). A new plan is a lever that makes money (issue 22): it is only filed (202) and
 * takes effect when a second operator approves it (the approval replays this function with
 * money.approved); one not approved by its first day never starts.
 */
export async function createPlan(tx: Db, money: MoneyContext, bounds: CompensationBounds, input: PlanInput): Promise<MoneyResult<ReplyOf<typeof plansApi.create>>> {
  const today = await istToday(tx);
  const from = input.effectiveFrom ?? today;
  if (from < today) {
    throw refused('effectiveFrom', `A new plan cannot start in the past: effective from must be today (${isoToWireDate(today)}) or later`);
  }
  const terms = termsOf(input, from, money.makerId, bounds);
  if (await repo.planNameTaken(tx, input.name)) throw duplicate(input.name);
  if (!money.approved) {
    const projection = await planProjection(tx, { ...terms, dailyPaise: dailyPaiseOf(terms.dailyMode, terms.dailyValue, terms.pricePaise) }, (await settingsOn(tx, from)).settings, from, null);
    return holdForApproval(tx, money, {
      kind: 'plan_create', userId: null, amountPaise: projection.totalPaise,
      payload: { body: wireBody(input, from), effectiveFrom: from, details: changeDetails(null, shown(terms, input.name), projection) },
      reason: waits(`New plan ${input.name}`, projection),
    });
  }
  const plan = await uniquely(input.name, async () => {
    const planId = await repo.insertPlan(tx, input.name);
    const versionId = await repo.upsertVersion(tx, planId, terms);
    if (versionId === null) throw new AppError(409, 'The plan could not be saved: try again');
    return planOf(tx, planId, today);
  });
  const after = await repo.versionOn(tx, plan.planId, from);
  return {
    status: 201,
    body: { success: true, message: `Plan ${input.name} created: in force from ${isoToWireDate(from)}`, data: plan },
    audit: { action: 'create', entity: 'membership_plan', entityId: plan.planId, after: { ...after, makerId: money.makerId, approvedBy: money.actorId } },
  };
}

/**
 * PUT /income/plans/:id: a change, a new version from effectiveFrom (default tomorrow; today or
 * earlier is refused, the version in force today is never edited); the same future day again
 * replaces that version. Filed for a second operator like a new plan.
 */
export async function changePlan(tx: Db, money: MoneyContext, bounds: CompensationBounds, planId: number, input: PlanInput): Promise<MoneyResult<ReplyOf<typeof plansApi.change>>> {
  if (!(await repo.planExists(tx, planId))) throw new AppError(404, NOT_FOUND);
  const today = await istToday(tx);
  const tomorrow = addDays(today, 1);
  const from = input.effectiveFrom ?? tomorrow;
  if (from <= today) {
    throw refused('effectiveFrom', `A plan change takes effect from tomorrow (${isoToWireDate(tomorrow)}) at the earliest: the terms in force today are never edited`);
  }
  const terms = termsOf(input, from, money.makerId, bounds);
  if (await repo.planNameTaken(tx, input.name, planId)) throw duplicate(input.name);
  const sameDay = await repo.versionOn(tx, planId, from);
  const before = sameDay ?? (await repo.versionInForce(tx, planId, from));
  if (!money.approved) {
    const projection = await planProjection(tx, { ...terms, dailyPaise: dailyPaiseOf(terms.dailyMode, terms.dailyValue, terms.pricePaise) }, (await settingsOn(tx, from)).settings, from, planId);
    return holdForApproval(tx, money, {
      kind: 'plan_change', userId: null, amountPaise: projection.totalPaise,
      payload: { planId, body: wireBody(input, from), effectiveFrom: from, details: changeDetails(before ? shownVersion(before) : null, shown(terms, input.name), projection) },
      reason: waits(`The change of plan ${before?.name ?? planId} from ${isoToWireDate(from)}`, projection),
    });
  }
  const replaced = sameDay !== null;
  const plan = await uniquely(input.name, async () => {
    await repo.renamePlan(tx, planId, input.name);
    const versionId = await repo.upsertVersion(tx, planId, terms);
    if (versionId === null) {
      throw new AppError(409, `The terms of ${isoToWireDate(from)} are already in force and cannot be changed`);
    }
    return planOf(tx, planId, today);
  });
  const after = await repo.versionOn(tx, planId, from);
  const day = isoToWireDate(from);
  return {
    status: 200,
    body: { success: true, message: replaced ? `The change scheduled for ${day} was replaced` : `Plan change saved: in force from ${day}`, data: plan },
    audit: {
      action: replaced ? 'replace_version' : 'change', entity: 'membership_plan', entityId: planId, before,
      after: { ...after, makerId: money.makerId, approvedBy: money.actorId },
    },
  };
}
