import { sql } from 'drizzle-orm';
import { DEFAULT_INCOME_SETTINGS, LEVELS, percentToBp } from '../../contract/income.ts';
import { audit } from '../lib/audit.ts';
import { MAX_WALK } from '../modules/income/level-income.ts';
import { runsSettled } from '../modules/income/runs/engine.ts';
import * as runs from '../modules/income/runs/runs.repository.ts';
import { scheduleTick } from '../modules/income/runs/scheduler.ts';
import * as plans from '../modules/income/plans.repository.ts';
import { uplinesOfEachText } from '../modules/network/tree.ts';
import { addDays, istToday, settingsOn, upsertSettingsVersion } from '../modules/income/settings.ts';
import { bookHistory, HISTORY_TRANSFER_ID } from './books.ts';
import { rowsOf, type Database, type Db } from './client.ts';
import type { CountRow } from './rows.ts';
import type { membershipPlanVersions } from './schema/income.ts';

/**
 * The demo data's income (issue 16: "the demo generator creates members and memberships and then
 * runs the engine over the past days"). Three steps:
 * 1. plans and settings: two demo plans (Silver ₹499 at 1 % a day for 200 days, Gold ₹999 at ₹15
 *    a day for 150 days, both capped at 2× the price) and the default settings, saved as one version,
 *    each in force from the first activation day; only when none exist yet;
 * 2. activations, set-based (a few statements for any number of members) with the rules of
 *    activateMembership: the plan version in force that day copied onto the membership, starts_on
 *    = the day after, the fee (membership_fee; paid outside: external_payment first) and the level
 *    income of the settings in force (an upline is active when live, status true and holding a
 *    membership activated before this one; compression walks up to MAX_WALK levels);
 * 3. the engine: its schedule's catch-up (scheduleTick) runs every period due before today in
 *    order — daily payouts, royalty, referral bonus, monthly reward, rank promotion — from the
 *    first earning day, each run to its end. A first start then only has today's runs to do (at
 *    the payout time).
 */

/** The demo's plans: Silver ₹499 at 1 %/day for 200 days, Gold ₹999 at ₹15/day for 150 days, caps 2×. */
const DEMO_PLANS = [
  { name: 'Silver', pricePaise: 499_00, dailyMode: 'percent' as const, dailyValue: 100, durationDays: 200, capPaise: 998_00 },
  { name: 'Gold', pricePaise: 999_00, dailyMode: 'fixed' as const, dailyValue: 15_00, durationDays: 150, capPaise: 1_998_00 },
];

/** A plan version a demo membership is sold on. */
interface DemoTerms {
  planId: number;
  versionId: number;
  name: string;
  pricePaise: number;
  dailyPaise: number;
  capPaise: number;
  durationDays: number;
}

/**
 * The first day the demo activates memberships (yyyy-mm-dd, India time): a week back, or further
 * back to hold the previous month's last 4 days (so a month is over, and its royalty and monthly
 * reward are run on fees sold in it), never before the members' own period (`days`). At bulk sizes
 * a week: every day of the window is a run of each daily kind over every member.
 */
export function activationStart(today: string, days: number, bulk: boolean): string {
  const lastOfPrevious = addDays(`${today.slice(0, 8)}01`, -1);
  const week = addDays(today, -7);
  const monthEnd = addDays(lastOfPrevious, -3);
  const wanted = bulk || week < monthEnd ? week : monthEnd;
  const earliest = addDays(today, -(days - 1));
  return wanted > earliest ? wanted : earliest;
}

/** A plan's newest version as the demo reads it, before its daily amount is worked out. */
type DemoVersionRow = DemoTerms & Pick<typeof membershipPlanVersions.$inferSelect, 'dailyMode' | 'dailyValue' | 'active'>;

/** Plans and settings in force from `from`, created only when none exist (a second seed reuses them). */
async function ensurePlansAndSettings(tx: Db, from: string): Promise<DemoTerms[]> {
  const existing = rowsOf<CountRow>(await tx.execute(sql`select count(*)::int8 as n from membership_plans`));
  if (Number(existing[0].n) === 0) {
    for (const p of DEMO_PLANS) {
      const planId = await plans.insertPlan(tx, p.name);
      const versionId = await plans.upsertVersion(tx, planId, { ...p, effectiveFrom: from, active: true, createdBy: null });
      await audit(tx, null, {
        action: 'plan_created', entity: 'membership_plan', entityId: planId,
        after: { ...p, versionId, effectiveFrom: from, demo: true },
      });
    }
  }
  const saved = rowsOf<CountRow>(await tx.execute(sql`select count(*)::int8 as n from income_settings_versions`));
  if (Number(saved[0].n) === 0) {
    const versionId = await upsertSettingsVersion(tx, from, DEFAULT_INCOME_SETTINGS, null);
    await audit(tx, null, {
      action: 'income_settings_saved', entity: 'income_settings', entityId: versionId ?? 0,
      after: { effectiveFrom: from, settings: DEFAULT_INCOME_SETTINGS, demo: true },
    });
  }
  // The versions a demo activation sells: each active plan's version in force on `from`.
  const rows = rowsOf<DemoVersionRow>(await tx.execute(sql`
    select distinct on (v.plan_id) v.plan_id as "planId", v.version_id as "versionId", p.name, v.price_paise::int8 as "pricePaise",
           v.daily_mode as "dailyMode", v.daily_value::int8 as "dailyValue", v.cap_paise::int8 as "capPaise",
           v.duration_days as "durationDays", v.active
      from membership_plan_versions v join membership_plans p on p.plan_id = v.plan_id
     where v.effective_from <= ${from}::date
     order by v.plan_id, v.effective_from desc`));
  return rows
    .filter((r) => r.active)
    .map((r) => {
      const pricePaise = Number(r.pricePaise);
      const dailyValue = Number(r.dailyValue);
      return {
        planId: Number(r.planId), versionId: Number(r.versionId), name: r.name, pricePaise,
        dailyPaise: r.dailyMode === 'fixed' ? dailyValue : Math.floor((pricePaise * dailyValue) / 10_000),
        capPaise: Number(r.capPaise), durationDays: Number(r.durationDays),
      };
    });
}

const IST = `'Asia/Kolkata'`;
const hash = (expr: string, salt: number) => `abs(hashint8extended((${expr})::int8, ${salt}))`;

/**
 * About 40 % of the seed's members (user ids b+1 … b+n) take a membership at a moment between
 * their first wallet recharge (or the start of the activation window, whichever is later) and
 * the start of today, India time (so every membership has started earning; one in four of those
 * who could, before this month began); one in five pays outside the wallet (UPI, cash or a bank
 * transfer, with a reference). The demo's first recharge (₹1,500 at least) less its largest withdrawal (₹400) covers either plan,
 * so a wallet payment never takes a balance below zero. Everything in the caller's transaction;
 * balances are set from the ledger afterwards by the caller.
 */
export async function seedMemberships(tx: Db, options: { b: number; n: number; from: string; run: (tx: Db, text: string) => Promise<void> }) {
  const { b, n, from, run } = options;
  const terms = await ensurePlansAndSettings(tx, from);
  if (terms.length === 0) return;
  const { settings } = await settingsOn(tx, from);
  const walk = settings.compression ? MAX_WALK : LEVELS;
  const termsValues = terms.map((t, i) =>
    `(${i}, ${t.planId}, ${t.versionId}, '${t.name.replace(/'/g, "''")}', ${t.pricePaise}::int8, ${t.dailyPaise}::int8, ${t.capPaise}::int8, ${t.durationDays})`).join(', ');
  const windowStart = `((date '${from}' + time '09:00') at time zone ${IST})`;
  // Activations end before today (India time): a membership starts earning the day after, so none
  // has a start in the future.
  const todayStart = `((now() at time zone ${IST})::date::timestamp at time zone ${IST})`;
  // One in four of those who could buy in the previous month did: its royalty pool and monthly
  // reward have fees to share at any size.
  const monthStart = `(date_trunc('month', (now() at time zone ${IST}))::timestamp at time zone ${IST})`;
  const firstRecharge = `(u.created_at + least(interval '1 hour', (now() - u.created_at) * 0.3))`;
  await run(tx, `
    create temp table seed_terms on commit drop as
    select * from (values ${termsValues}) as t(i, plan_id, version_id, name, price, daily, cap, duration);
    create temp table seed_activations on commit drop as
    select a.user_id, a.referred_by, a.at, t.plan_id, t.version_id, t.name, t.price, t.daily, t.cap, t.duration,
           case when ${hash('a.user_id', 33)} % 5 = 0 then 'outside' else 'wallet' end as paid_via,
           (array['UPI', 'Cash', 'Bank transfer'])[1 + ${hash('a.user_id', 34)} % 3] as method
      from (
        select u.user_id, u.referred_by,
               g.at + (g.till - g.at) * (0.05 + 0.9 * ((${hash('u.user_id', 32)} % 1000003)::float8 / 1000003)) as at
          from users u
         cross join lateral (select greatest(${firstRecharge}, ${windowStart}) as at) f
         cross join lateral (
           select f.at, case when ${hash('u.user_id', 35)} % 4 = 0 and f.at < ${monthStart} then ${monthStart} else ${todayStart} end as till) g
         where u.user_id > ${b} and u.user_id <= ${b + n} and g.at < ${todayStart}
           and (${hash('u.user_id', 31)} % 1000003)::float8 / 1000003 < 0.4
      ) a
      join seed_terms t on t.i = ${hash('a.user_id', 30)} % ${terms.length};
    insert into memberships (user_id, amount_paise, plan_id, plan_version_id, daily_paise, cap_paise, duration_days, starts_on,
                             status, paid_via, payment_method, payment_reference, created_at)
    select user_id, price, plan_id, version_id, daily, cap, duration, (at at time zone ${IST})::date + 1, 'active', paid_via,
           case when paid_via = 'outside' then method end, case when paid_via = 'outside' then 'DEMO-' || user_id end, at
      from seed_activations order by at, user_id;
    insert into ledger_entries (user_id, kind, amount_paise, description, created_at, transfer_id)
    select user_id, kind, amount, description, at, ${HISTORY_TRANSFER_ID} from (
      select user_id, 1 as k, 'external_payment' as kind, price as amount, at,
             'Membership ' || name || ' (version ' || version_id || ') paid outside the wallet: ' || method || ', reference DEMO-' || user_id as description
        from seed_activations where paid_via = 'outside'
      union all
      select user_id, 2, 'membership_fee', -price, at,
             case when paid_via = 'outside' then 'Membership ' || name || ' (version ' || version_id || '), paid by ' || method || ' (reference DEMO-' || user_id || ')'
                  else 'Membership ' || name || ' (version ' || version_id || '), paid from the wallet' end
        from seed_activations
    ) f order by at, user_id, k`);
  await bookHistory(tx);
  // Level income: the uplines of every activation in one recursive statement; an upline is active
  // when live, status true and holding a membership activated before this one (the moment, then
  // the id), as activateMembership sees it at that moment.
  const bp = settings.levelIncome.map(percentToBp);
  await run(tx, `
    create temp table seed_level_income on commit drop as
    with recursive ${uplinesOfEachText('seed_activations', ['at', 'price'], walk)}, active as (
      select up.*, row_number() over (partition by up.member order by up.depth) as nth
        from up join users u on u.user_id = up.user_id and u.deleted_at is null and u.status
        join memberships m on m.user_id = up.user_id and m.status = 'active'
         and (m.created_at < up.at or (m.created_at = up.at and m.user_id < up.member))
    ), levelled as (
      select member, user_id, ${settings.compression ? 'nth' : 'depth'} as level, at, price from active
    )
    select l.member, l.user_id, l.level, l.at, (l.price * (array[${bp.join(',')}]::int8[])[l.level] / 10000)::int8 as amount
      from levelled l where l.level <= ${LEVELS};
    insert into ledger_entries (user_id, kind, amount_paise, description, created_at, transfer_id)
    select user_id, 'level_income', amount, 'Level ' || level || ' income on the membership of member ' || member, at, ${HISTORY_TRANSFER_ID}
      from seed_level_income where amount > 0 order by at, member, level`);
  await bookHistory(tx);
}

/**
 * The engine over the past days: its schedule's catch-up, every due period of every kind in order,
 * each run worked to its end in this process. Returns the runs and whether any did not complete.
 */
export async function runEngineOverPastDays(database: Database, progress: (message: string) => void): Promise<number[]> {
  // Due as of the start of today: what an earlier day owed, never today's runs (a demo's numbers
  // do not depend on the time of day it was made; the schedule runs today's at its time).
  const now = { day: await istToday(database.db), time: '00:00' };
  const worked = await scheduleTick(database, { now });
  await runsSettled(database);
  const notDone: string[] = [];
  for (const id of worked) {
    const run = await runs.runById(database.db, id);
    if (run && run.status !== 'completed') notDone.push(`${id} ${run.kind} ${run.periodStart}: ${run.status}${run.error ? ` (${run.error})` : ''}`);
  }
  if (notDone.length > 0) throw new Error(`demo income runs did not complete: ${notDone.join('; ')}`);
  progress(`income engine: ${worked.length} runs, every period due before ${now.day} (India time)`);
  return worked;
}
