import { sql, type SQL } from 'drizzle-orm';
import { isoToWireDate } from '../../../../contract/common.ts';
import { percentToBp, type IncomeSettings } from '../../../../contract/income.ts';
import { postSet } from '../../../db/books.ts';
import { rowsOf, type Db } from '../../../db/client.ts';
import type { CountRow } from '../../../db/rows.ts';
import type { memberships } from '../../../db/schema/members.ts';
import { sendToBank } from '../../bank-transfers/bank-transfers.service.ts';
import { inRange, type RunKindHandler, type RunPeriod, type RunScope, type Tally } from './kind.ts';

/**
 * Daily payout (issue 16): on day D every membership with status 'active', starts_on ≤ D ≤
 * starts_on + duration_days − 1 and earned < cap earns gross = least(daily, cap − earned); TDS and
 * the admin charge are floor(gross × bp / 10,000) each, net = gross − both. Success: ledger +gross
 * (daily_payout), −tds (tds), −admin (admin_charge), each only when not zero, all with the run (the
 * credit also with the run's batch: Reward Income's dailyPayout shows the credits, gross); the
 * balance moves by net; a Success payout row. A member who can't be paid (inactive,
 * or no primary bank account when the settings pay to bank) gets a Failure row with its reason and
 * no ledger row. Either way the day is earned (earned += gross, days_earned += 1) and the
 * membership turns 'completed' at its cap or on (or after) its last day. A day with net = 0
 * writes nothing and earns nothing. A deleted member's membership earns nothing (no row). A member
 * who already has a payout row for D (a row from before the engine) is left alone that day.
 * Units are active memberships in id order (memberships_active_idx); one statement per chunk.
 * Paying to bank, a second statement per chunk sends what reached the wallets to the bank
 * (bank-payout.ts: bank_payout lines in the chunk's transfer, gathered into bank batches).
 */

/** Monday to Friday, or every day when the settings pay on weekends. */
export function isBusinessDay(day: string, settings: Pick<IncomeSettings, 'payOnWeekends'>): boolean {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return settings.payOnWeekends || (weekday >= 1 && weekday <= 5);
}

const rates = (settings: IncomeSettings) => ({
  tdsBp: percentToBp(settings.tdsPercent),
  // Section 206AA (docs/tax.md): a member without a PAN has TDS deducted at the no-PAN rate.
  tdsNoPanBp: percentToBp(settings.tdsWithoutPanPercent),
  adminBp: percentToBp(settings.adminChargePercent),
  bank: settings.payTo === 'bank',
});

/**
 * The computation shared by the run and its preview: one row per unit of `units` (memberships with
 * status 'active') for day D, with gross, deductions, net, the reason it can't be paid, whether it
 * earns this day (`pays`) and (for the run) the id its gross ledger row will have. Every later part
 * of the statement reads this one materialised row set or joins a table by its key: a join of two
 * CTEs would be planned from guesses (a nested loop over 20,000 × 60,000 rows).
 */
function computed(units: SQL, day: string, settings: IncomeSettings, withIds: boolean): SQL {
  const { tdsBp, tdsNoPanBp, adminBp, bank } = rates(settings);
  const entryId = withIds
    ? sql`case when q.eligible and q.net > 0 and q.reason is null then nextval((select pg_get_serial_sequence('ledger_entries', 'id')::regclass)) end`
    : sql`null::int8`;
  return sql`
    units as materialized (${units}),
    calc as materialized (
      select q.*, (q.eligible and q.net > 0) as pays, ${entryId} as entry_id
        from (
          select p.*, p.gross - p.tds - p.admin as net
            from (
              select e.*, (e.gross * (case when e.pan is null then ${tdsNoPanBp} else ${tdsBp} end)::int8 / 10000)::int8 as tds, (e.gross * ${adminBp}::int8 / 10000)::int8 as admin
                from (
                  select c.id, c.user_id, c.pan, c.tds_quarter, c.starts_on + (c.duration_days - 1) as last_day,
                         greatest(least(c.daily_paise, c.cap_paise - c.earned_paise), 0)::int8 as gross,
                         (c.live_id is not null and c.starts_on <= ${day}::date and ${day}::date <= c.starts_on + (c.duration_days - 1)
                          and c.earned_paise < c.cap_paise
                          and c.paid_id is null) as eligible,
                         case when not c.status then 'Member is inactive'
                              when ${bank}::boolean and not exists (
                                select 1 from bank_accounts b where b.user_id = c.user_id and b.is_primary) then 'No primary bank account'
                         end as reason
                    from units c
                ) e
            ) p
        ) q
    )`;
}

const TALLY = sql`
  count(*) filter (where reason is null)::int8 as paid,
  count(*) filter (where reason is not null)::int8 as failed,
  coalesce(sum(gross) filter (where reason is null), 0)::int8 as "grossPaise",
  coalesce(sum(tds + admin) filter (where reason is null), 0)::int8 as "deductionsPaise",
  coalesce(sum(tds) filter (where reason is null), 0)::int8 as "tdsPaise",
  coalesce(sum(net) filter (where reason is not null), 0)::int8 as "failedPaise"`;

type TallyRow = Omit<Tally, 'units'> & { units: number };
const tallyOf = (r: Record<string, unknown>): Tally => ({
  units: Number(r.units), paid: Number(r.paid), failed: Number(r.failed), grossPaise: Number(r.grossPaise),
  deductionsPaise: Number(r.deductionsPaise), failedPaise: Number(r.failedPaise), tdsPaise: Number(r.tdsPaise ?? 0),
});

/**
 * The TDS report's rollup for the chunk's own lines (issue 25, docs/tax.md; the same rules as
 * drizzle/functions/tds_quarters.sql): the quarter of the lines' India day (now), the members
 * entered in its set — only those whose membership had no deduction yet this quarter, so a day's
 * run probes the set for a member once a quarter, not every day — and one row of totals per chunk
 * (gross paid with a deduction, TDS, TDS at the no-PAN rate: the member's PAN as the chunk read it).
 */
const TDS_ROLLUP = sql`
    tds_now as (select tds_quarter_of((now() at time zone 'Asia/Kolkata')::date) as q),
    tds_entered as (
      insert into tds_quarter_members (quarter, user_id)
      select (select q from tds_now), c.user_id from calc c
       where c.pays and c.reason is null and c.tds > 0 and c.tds_quarter is distinct from (select q from tds_now)
       order by 2
      on conflict do nothing
      returning user_id
    ),
    tds_totals as (
      insert into tds_quarter_totals as t (quarter, shard, members, gross_paise, tds_paise, tds_without_pan_paise)
      select (select q from tds_now), (txid_current() % 8)::smallint, (select count(*) from tds_entered),
             sum(c.gross), sum(c.tds), coalesce(sum(c.tds) filter (where c.pan is null), 0)
        from calc c where c.pays and c.reason is null and c.tds > 0
      having count(*) > 0
      on conflict (quarter, shard) do update
        set members = t.members + excluded.members, gross_paise = t.gross_paise + excluded.gross_paise,
            tds_paise = t.tds_paise + excluded.tds_paise, tds_without_pan_paise = t.tds_without_pan_paise + excluded.tds_without_pan_paise
    )`;

/**
 * The payout (not reversed) that member `userId` (an SQL expression: a column of the outer query)
 * already has on `day`, looked up in daily_payouts_user_day_uq (user_id, payout_date). The
 * planner's statistics never hold the day being paid (a new date), so given `payout_date = day` it
 * expects no payout on it and reads the day's payouts through daily_payouts_date_id_idx for each
 * membership (or, as a join, reads them once and compares every membership with all of them): the
 * rows the run's earlier chunks had written, 12 minutes for one day at 1,000,000 members instead
 * of 15 s. The day is therefore written as row comparisons on (user_id, payout_date), which only
 * that index can serve (docs/structure.md).
 */
export const payoutOfDay = (userId: SQL, day: string) => sql`
  select x.id from daily_payouts x
   where x.user_id = ${userId} and x.status <> 'Reversed'
     and (x.user_id, x.payout_date) >= (${userId}, ${day}::date) and (x.user_id, x.payout_date) <= (${userId}, ${day}::date)`;

/**
 * Active memberships (a chunk of them, in id order, when `chunk` is given) with their member and
 * any payout they already have for the day. The member is read here, by its key for each
 * membership (a LIMIT query is planned as an index nested loop; joined later, the planner hashed
 * all of users per chunk).
 */
export const unitsOf = (day: string, chunk?: { cursor: number; limit: number; upTo?: number }) => sql`
    select m.id, m.user_id, m.daily_paise, m.cap_paise, m.earned_paise, m.starts_on, m.duration_days, u.user_id as live_id, u.status, u.pan,
           m.tds_quarter, x.id as paid_id
      from memberships m
      left join users u on u.user_id = m.user_id and u.deleted_at is null
      left join lateral (${payoutOfDay(sql`m.user_id`, day)} limit 1) x on true
     where m.status = 'active'
     ${chunk ? sql`and m.id > ${chunk.cursor} ${chunk.upTo === undefined ? sql`` : sql`and m.id <= ${chunk.upTo}`} order by m.id limit ${chunk.limit}` : sql``}`;

async function step(tx: Db, scope: RunScope, cursor: number, limit: number, upTo?: number) {
  const day = scope.period.start;
  const units = unitsOf(day, { cursor, limit, upTo });
  // Each deduction names itself (as Pay Now's lines do), so a member's history reads one payout and what was taken from it.
  const description = `Daily payout for ${day}`;
  const tdsDescription = `TDS on daily payout for ${day}`;
  const adminDescription = `Admin charge on daily payout for ${day}`;
  // One transfer per chunk (issue 25): each member's +gross, −TDS, −admin charge, and the company's
  // legs for all of them (daily payout expense, TDS payable, admin charge income).
  // The TDS report's rollup (docs/tax.md) is kept here for the chunk's own lines, not by the ledger's
  // trigger (drizzle/functions/tds_quarters.sql), which this transaction-local setting turns off.
  await tx.execute(sql`select set_config('backoffice.tds_rollup_by_chunk', 'on', true)`);
  const posted = await postSet(tx, { kind: 'daily_payout', runId: scope.runId, batchId: scope.batchId, description }, {
    with: computed(units, day, scope.settings, true),
    lines: sql`
      select c.id * 3 + v.n as ord, case when v.kind = 'daily_payout' then c.entry_id end as id, c.user_id, v.kind, v.amount as amount_paise,
             case when v.kind = 'daily_payout' then ${scope.batchId}::int end as batch_id, v.description, null::int8 as reversal_of
        from calc c cross join lateral (values (0, 'daily_payout', c.gross, ${description}::text), (1, 'tds', -c.tds, ${tdsDescription}::text),
                                               (2, 'admin_charge', -c.admin, ${adminDescription}::text)) v(n, kind, amount, description)
       where c.pays and c.reason is null and v.amount <> 0`,
    also: sql`,
    ${TDS_ROLLUP},
    payouts as (
      insert into daily_payouts (user_id, payout_date, amount_paise, status, ledger_entry_id, paid_at, run_id,
                                 gross_paise, tds_paise, admin_charge_paise, reason)
      select c.user_id, ${day}::date, c.net, case when c.reason is null then 'Success' else 'Failure' end, c.entry_id,
             case when c.reason is null then now() end, ${scope.runId}::int8, c.gross, c.tds, c.admin, c.reason
        from calc c where c.pays
      returning id
    ),
    earned as (
      update memberships m
         set earned_paise = m.earned_paise + case when c.pays then c.gross else 0 end,
             days_earned = m.days_earned + c.pays::int,
             tds_quarter = case when c.pays and c.reason is null and c.tds > 0 then (select q from tds_now) else m.tds_quarter end,
             status = case when m.earned_paise + case when c.pays then c.gross else 0 end >= m.cap_paise
                             or ${day}::date >= c.last_day then 'completed' else 'active' end
        from calc c
       where m.id = c.id and (c.pays or ${day}::date >= c.last_day)
         and m.id > ${cursor} and m.id <= (select max(id) from units)
      returning m.id
    )`,
    select: sql`(select count(*) from units)::int8 as units, (select max(id) from units)::int8 as cursor,
           (select count(*) from payouts)::int8 as written, (select count(*) from earned)::int8 as earned, t.*`,
    from: sql`(select ${TALLY} from calc where pays) t`,
  });
  await tx.execute(sql`select set_config('backoffice.tds_rollup_by_chunk', 'off', true)`);
  // Bank mode (issue 25): what reached each wallet goes on to the bank, in a statement of its own.
  if (scope.settings.payTo === 'bank' && posted.transferId !== null) {
    await sendToBank(tx, posted.transferId, { runId: scope.runId, batchId: scope.batchId }, day);
  }
  const row = posted.row as TallyRow & { cursor: number | null };
  const tally = tallyOf(row);
  return { ...tally, cursor: row.cursor === null ? cursor : Number(row.cursor), done: tally.units < limit };
}

export const dailyPayout: RunKindHandler = {
  kind: 'daily_payout',
  periodOf: (day): RunPeriod => ({ start: day, end: day }),
  unpaid: (period, settings) => {
    if (isBusinessDay(period.start, settings)) return null;
    const weekday = new Date(`${period.start}T00:00:00Z`).getUTCDay() === 6 ? 'Saturday' : 'Sunday';
    return `${isoToWireDate(period.start)} is a ${weekday}: with Pay on weekends off the daily payout runs Monday to Friday`;
  },
  isDue: (period, settings, now) =>
    isBusinessDay(period.start, settings) && (period.start < now.day || (period.start === now.day && now.time >= settings.payoutTime)),
  async begin(tx, scope) {
    const [row] = rowsOf<CountRow>(await tx.execute(sql`select count(*)::int8 as n from memberships where status = 'active'`));
    return {
      total: Number(row.n),
      state: {
        tdsBp: percentToBp(scope.settings.tdsPercent), tdsWithoutPanBp: percentToBp(scope.settings.tdsWithoutPanPercent),
        adminChargeBp: percentToBp(scope.settings.adminChargePercent), payTo: scope.settings.payTo,
      },
      batch: { kind: 'reward', rewardType: 'dailyPayout', runDate: scope.period.start },
    };
  },
  step,
  async split(tx, _scope, total, parts) {
    // The ids at each part's end, read off memberships_active_idx (an index-only walk).
    const ends: number[] = [];
    for (let k = 1; k < parts; k++) {
      const offset = Math.floor((total * k) / parts) - 1;
      if (offset < 0) continue;
      const [row] = rowsOf<Pick<typeof memberships.$inferSelect, 'id'>>(await tx.execute(sql`
        select id::int8 as id from memberships where status = 'active' order by id offset ${offset} limit 1`));
      if (row && (ends.length === 0 || Number(row.id) > ends[ends.length - 1])) ends.push(Number(row.id));
    }
    return ends;
  },
  async preview(db, scope) {
    const units = unitsOf(scope.period.start);
    const [row] = rowsOf<TallyRow>(await db.execute(sql`
      with ${computed(units, scope.period.start, scope.settings, false)}
      select (select count(*) from units)::int8 as units, t.* from (select ${TALLY} from calc where pays) t`));
    return tallyOf(row);
  },
  async undo(tx, scope, members) {
    // The run's payout rows stay, marked Reversed with who reversed them, when and why (issue 24;
    // their payouts_daily rollup follows by trigger); each membership gets back the day it earned
    // and is active again (a later run closes it again if its time is up).
    await tx.execute(sql`
      with run as (
        select reversed_by, state->'reversal'->>'remarks' as remarks from income_runs where run_id = ${scope.runId}
      ),
      gone as (
        update daily_payouts p
           set reversed_status = p.status, status = 'Reversed', reversed_at = now(),
               reversed_by = (select reversed_by from run), reversal_reason = (select remarks from run)
         where p.run_id = ${scope.runId} and ${inRange(sql`p.user_id`, members)} and p.status <> 'Reversed'
        returning p.user_id, p.gross_paise
      )
      update memberships m
         set earned_paise = m.earned_paise - g.gross_paise, days_earned = m.days_earned - 1, status = 'active',
             -- its next deduction enters the member in the TDS report's quarter again (the reversal's
             -- lines took it out if it had no other deduction there: drizzle/functions/tds_quarters.sql)
             tds_quarter = null
        from gone g
       where m.user_id = g.user_id and m.status <> 'legacy'`);
  },
};
