import { isoToWireDate, MAX_RUPEES, rupeesToPaise } from '../../../contract/common.ts';
import { percentToBp, type Plan, type PlanVersion, type planBody } from '../../../contract/income.ts';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { audit } from '../../lib/audit.ts';
import { actorId, type Ctx } from '../../lib/context.ts';
import { AppError } from '../../lib/errors.ts';
import * as repo from './plans.repository.ts';
import { addDays, dailyPaiseOf, istToday } from './settings.ts';

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

/** The version's stored terms: a percent as basis points of the price, rupees as paise. */
function termsOf(input: PlanInput, effectiveFrom: string, createdBy: number | null): repo.PlanVersionValues {
  if (input.dailyMode === 'fixed' && input.dailyValue > MAX_RUPEES) {
    throw refused('dailyValue', `Daily payout must not exceed ${MAX_RUPEES}`);
  }
  const pricePaise = rupeesToPaise(input.price);
  const dailyValue = input.dailyMode === 'percent' ? percentToBp(input.dailyValue) : rupeesToPaise(input.dailyValue);
  if (dailyPaiseOf(input.dailyMode, dailyValue, pricePaise) < 1) {
    throw refused('dailyValue', 'Daily payout must come to at least ₹0.01 a day (a percentage of this price rounds down to 0)');
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

/** A new plan; its first version starts on effectiveFrom (default today; a past day is refused). */
export async function createPlan(ctx: Ctx, input: PlanInput): Promise<{ plan: Plan; message: string }> {
  const { db } = ctx.database;
  const today = await istToday(db);
  const from = input.effectiveFrom ?? today;
  if (from < today) {
    throw refused('effectiveFrom', `A new plan cannot start in the past: effective from must be today (${isoToWireDate(today)}) or later`);
  }
  const terms = termsOf(input, from, actorId(ctx));
  if (await repo.planNameTaken(db, input.name)) throw duplicate(input.name);
  const plan = await uniquely(input.name, () => db.transaction(async (tx) => {
    const planId = await repo.insertPlan(tx, input.name);
    const versionId = await repo.upsertVersion(tx, planId, terms);
    if (versionId === null) throw new AppError(409, 'The plan could not be saved: try again');
    const after = await repo.versionOn(tx, planId, from);
    await audit(tx, ctx, { action: 'create', entity: 'membership_plan', entityId: planId, after });
    return planOf(tx, planId, today);
  }));
  return { plan, message: `Plan ${input.name} created: in force from ${isoToWireDate(from)}` };
}

/**
 * A change: a new version from effectiveFrom (default tomorrow; today or earlier is refused, the
 * version in force today is never edited); the same future day again replaces that version.
 */
export async function changePlan(ctx: Ctx, planId: number, input: PlanInput): Promise<{ plan: Plan; message: string }> {
  const { db } = ctx.database;
  if (!(await repo.planExists(db, planId))) throw new AppError(404, NOT_FOUND);
  const today = await istToday(db);
  const tomorrow = addDays(today, 1);
  const from = input.effectiveFrom ?? tomorrow;
  if (from <= today) {
    throw refused('effectiveFrom', `A plan change takes effect from tomorrow (${isoToWireDate(tomorrow)}) at the earliest: the terms in force today are never edited`);
  }
  const terms = termsOf(input, from, actorId(ctx));
  if (await repo.planNameTaken(db, input.name, planId)) throw duplicate(input.name);
  let replaced = false;
  const plan = await uniquely(input.name, () => db.transaction(async (tx) => {
    const sameDay = await repo.versionOn(tx, planId, from);
    replaced = sameDay !== null;
    const before = sameDay ?? (await repo.versionInForce(tx, planId, from));
    await repo.renamePlan(tx, planId, input.name);
    const versionId = await repo.upsertVersion(tx, planId, terms);
    if (versionId === null) {
      throw new AppError(409, `The terms of ${isoToWireDate(from)} are already in force and cannot be changed`);
    }
    const after = await repo.versionOn(tx, planId, from);
    await audit(tx, ctx, { action: replaced ? 'replace_version' : 'change', entity: 'membership_plan', entityId: planId, before, after });
    return planOf(tx, planId, today);
  }));
  const day = isoToWireDate(from);
  return { plan, message: replaced ? `The change scheduled for ${day} was replaced` : `Plan change saved: in force from ${day}` };
}
