import { sql, type SQL } from 'drizzle-orm';
import { isoToWireDate, paiseToRupees } from '../../../contract/common.ts';
import { bpToPercent, type Plan, type PlanVersion } from '../../../contract/income.ts';
import { nameKey } from '../../db/schema/catalogue.ts';
import type { membershipPlans, membershipPlanVersions } from '../../db/schema/income.ts';
import { rowsOf, type Db } from '../../db/client.ts';
import { iso, isoDate } from '../../db/rows.ts';
import { dailyPaiseOf } from './settings.ts';

/** A plan version as stored, with the plan's name and who saved it. */
export interface PlanVersionRow {
  versionId: number;
  planId: number;
  effectiveFrom: string | Date;
  name: string;
  pricePaise: number | string;
  dailyMode: 'percent' | 'fixed';
  dailyValue: number | string;
  durationDays: number;
  capPaise: number | string;
  active: boolean;
  createdBy: number | string | null;
  createdByName: string | null;
  createdAt: string | Date;
}

/** The terms a version stores (money in paise, a percent in basis points). */
export interface PlanVersionValues {
  effectiveFrom: string;
  pricePaise: number;
  dailyMode: 'percent' | 'fixed';
  dailyValue: number;
  durationDays: number;
  capPaise: number;
  active: boolean;
  createdBy: number | null;
}

export const toPlanVersion = (r: PlanVersionRow): PlanVersion => {
  const pricePaise = Number(r.pricePaise);
  const dailyValue = Number(r.dailyValue);
  return {
    versionId: r.versionId,
    planId: r.planId,
    effectiveFrom: isoToWireDate(isoDate(r.effectiveFrom)),
    name: r.name,
    price: paiseToRupees(pricePaise),
    dailyMode: r.dailyMode,
    dailyValue: r.dailyMode === 'percent' ? bpToPercent(dailyValue) : paiseToRupees(dailyValue),
    dailyAmount: paiseToRupees(dailyPaiseOf(r.dailyMode, dailyValue, pricePaise)),
    durationDays: r.durationDays,
    cap: paiseToRupees(r.capPaise),
    active: r.active,
    createdBy: r.createdBy === null ? null : Number(r.createdBy),
    createdByName: r.createdByName,
    createdAt: iso(r.createdAt),
  };
};

/** Versions matching `where` (on v = membership_plan_versions, p = membership_plans). */
async function versionsWhere(db: Db, where: SQL, order: SQL): Promise<PlanVersionRow[]> {
  return rowsOf<PlanVersionRow>(await db.execute(sql`
    select v.version_id as "versionId", v.plan_id as "planId", v.effective_from::text as "effectiveFrom", p.name,
           v.price_paise::int8 as "pricePaise", v.daily_mode as "dailyMode", v.daily_value::int8 as "dailyValue",
           v.duration_days as "durationDays", v.cap_paise::int8 as "capPaise", v.active,
           v.created_by as "createdBy", u.full_name as "createdByName", v.created_at as "createdAt"
      from membership_plan_versions v
      join membership_plans p on p.plan_id = v.plan_id
      left join users u on u.user_id = v.created_by
     where ${where}
     order by ${order}`));
}

/**
 * Plans with the version in force on `today` and the next one scheduled after it (a plan whose
 * first version starts later has no current one yet). Plans are a short list: all, by name.
 */
export async function listPlans(db: Db, today: string, planId?: number): Promise<Plan[]> {
  const onlyPlan = planId === undefined ? sql`true` : sql`p.plan_id = ${planId}`;
  const rows = await versionsWhere(db, sql`v.version_id in (
      select (select c.version_id from membership_plan_versions c
               where c.plan_id = p.plan_id and c.effective_from <= ${today}::date order by c.effective_from desc limit 1)
        from membership_plans p where ${onlyPlan}
      union all
      select (select c.version_id from membership_plan_versions c
               where c.plan_id = p.plan_id and c.effective_from > ${today}::date order by c.effective_from limit 1)
        from membership_plans p where ${onlyPlan})`,
  sql`lower(p.name), p.plan_id, v.effective_from`);
  const plans = new Map<number, Plan>();
  for (const row of rows) {
    const plan = plans.get(row.planId) ?? { planId: row.planId, current: null, scheduled: null };
    if (isoDate(row.effectiveFrom) <= today) plan.current = toPlanVersion(row);
    else plan.scheduled = toPlanVersion(row);
    plans.set(row.planId, plan);
  }
  return [...plans.values()];
}

/** Every version of a plan, newest (latest effective_from) first. */
export async function planVersions(db: Db, planId: number): Promise<PlanVersion[]> {
  return (await versionsWhere(db, sql`v.plan_id = ${planId}`, sql`v.effective_from desc`)).map(toPlanVersion);
}

/** The version of a plan starting exactly on `day`, if one exists. */
export async function versionOn(db: Db, planId: number, day: string): Promise<PlanVersion | null> {
  const [row] = await versionsWhere(db, sql`v.plan_id = ${planId} and v.effective_from = ${day}::date`, sql`v.version_id`);
  return row ? toPlanVersion(row) : null;
}

/** The version in force on `day` (the latest not after it), if any. */
export async function versionInForce(db: Db, planId: number, day: string): Promise<PlanVersion | null> {
  const [row] = await versionsWhere(db, sql`v.plan_id = ${planId} and v.effective_from <= ${day}::date`, sql`v.effective_from desc limit 1`);
  return row ? toPlanVersion(row) : null;
}

export async function planExists(db: Db, planId: number): Promise<boolean> {
  const rows = rowsOf(await db.execute(sql`select 1 from membership_plans where plan_id = ${planId}`));
  return rows.length > 0;
}

/** Another plan with this name, case and blanks ignored (the index membership_plans_name_uq). */
export async function planNameTaken(db: Db, name: string, exceptPlanId = 0): Promise<boolean> {
  const rows = rowsOf(await db.execute(sql`
    select 1 from membership_plans where ${nameKey(sql`name`)} = ${nameKey(sql`${name}::text`)} and plan_id <> ${exceptPlanId} limit 1`));
  return rows.length > 0;
}

export async function insertPlan(db: Db, name: string): Promise<number> {
  const [row] = rowsOf<Pick<typeof membershipPlans.$inferSelect, 'planId'>>(await db.execute(sql`insert into membership_plans (name) values (${name}) returning plan_id as "planId"`));
  return row.planId;
}

/** Names are not versioned: a rename shows on every version, past ones too. */
export async function renamePlan(db: Db, planId: number, name: string): Promise<void> {
  await db.execute(sql`update membership_plans set name = ${name} where plan_id = ${planId}`);
}

/**
 * Writes the version starting on `effectiveFrom`, replacing one already scheduled for that day.
 * A version in force (effective_from ≤ today in India, by the database's clock) is never
 * replaced: then nothing is written and null comes back.
 */
export async function upsertVersion(db: Db, planId: number, v: PlanVersionValues): Promise<number | null> {
  const [row] = rowsOf<Pick<typeof membershipPlanVersions.$inferSelect, 'versionId'>>(await db.execute(sql`
    insert into membership_plan_versions (plan_id, effective_from, price_paise, daily_mode, daily_value, duration_days, cap_paise, active, created_by)
    values (${planId}, ${v.effectiveFrom}::date, ${v.pricePaise}, ${v.dailyMode}, ${v.dailyValue}, ${v.durationDays}, ${v.capPaise}, ${v.active}, ${v.createdBy})
    on conflict (plan_id, effective_from) do update
       set price_paise = excluded.price_paise, daily_mode = excluded.daily_mode, daily_value = excluded.daily_value,
           duration_days = excluded.duration_days, cap_paise = excluded.cap_paise, active = excluded.active,
           created_by = excluded.created_by, created_at = now()
     where membership_plan_versions.effective_from > (now() at time zone 'Asia/Kolkata')::date
    returning version_id as "versionId"`));
  return row?.versionId ?? null;
}
