import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_INCOME_SETTINGS, type IncomeSettings } from '../../../../contract/income.ts';
import { moneyInvariantViolations } from '../../../lib/money-invariants.ts';
import { bearer, createTestApp, type TestContext } from '../../../test/harness.ts';
import type { SettingsTimeline } from '../settings.ts';
import { runsSettled } from './engine.ts';
import { addDays, ledgerOf, member, membership, membershipOf, openPayoutApp, settingsFrom, today, wire } from './payout-test-kit.ts';
import { periodIn } from './periods.ts';
import { royalty } from './royalty.ts';
import { scheduleTick } from './scheduler.ts';
import { monthOf } from './team.ts';

/**
 * Issue 22, findings 4 and 5 as the attacker's steps: a daily payout for a day the settings do not
 * pay (a Saturday with "Pay on weekends" off), and royalty periods that overlap when "Royalty
 * period" changes from monthly to weekly.
 */

let t: TestContext;
let token: string;
let now: string;
beforeAll(async () => {
  ({ t, token, now } = await openPayoutApp(800, { tdsPercent: 0, adminChargePercent: 0, payOnWeekends: false }));
});
afterAll(() => t.close());
afterEach(async () => {
  await runsSettled(t.database);
  expect(await moneyInvariantViolations(t.database)).toEqual([]);
});

const post = (url: string, kind: string, day: string) =>
  t.app.inject({ method: 'POST', url: `/api/income/runs${url}`, headers: bearer(token), payload: { kind, date: wire(day) } });
const weekday = (day: string) => new Date(`${day}T00:00:00Z`).getUTCDay(); // 0 Sunday … 6 Saturday
/** The latest day on or before `day` that falls on `wd`. */
const lastOn = (day: string, wd: number) => addDays(day, -((weekday(day) - wd + 7) % 7));

describe('finding 4: a daily payout runs only on the days the settings pay', () => {
  it('a Saturday and a Sunday with Pay on weekends off: preview and start are refused with the reason, nothing is paid', async () => {
    const saturday = lastOn(addDays(now, -7), 6);
    const sunday = addDays(saturday, 1);
    const monday = addDays(saturday, 2);
    const userId = await member(t.database);
    const id = await membership(t.database, userId, { dailyPaise: 1000, capPaise: 100_000, durationDays: 30, startsOn: addDays(saturday, -1) });

    for (const [day, name] of [[saturday, 'Saturday'], [sunday, 'Sunday']] as const) {
      const reason = `${wire(day)} is a ${name}: with Pay on weekends off the daily payout runs Monday to Friday`;
      const preview = await post('/preview', 'daily_payout', day);
      expect(preview.statusCode).toBe(400);
      expect(preview.json()).toEqual({ success: false, message: reason });
      const started = await post('', 'daily_payout', day);
      expect(started.statusCode).toBe(400);
      expect(started.json()).toEqual({ success: false, message: reason });
    }
    const runs = await t.database.query(`select run_id from income_runs where kind = 'daily_payout' and period_start in ($1::date, $2::date)`, [saturday, sunday]);
    expect(runs).toEqual([]);
    expect(await ledgerOf(t.database, userId)).toEqual([]);
    expect(await membershipOf(t.database, id)).toEqual({ earned: 0, days: 0, status: 'active' });

    // Monday is a business day: it runs and pays its one day.
    expect((await post('', 'daily_payout', monday)).statusCode).toBe(201);
    await runsSettled(t.database);
    expect(await membershipOf(t.database, id)).toEqual({ earned: 1000, days: 1, status: 'active' });
  });

  it('with Pay on weekends on (the settings of that day) a Saturday is a business day', async () => {
    const saturday = lastOn(addDays(now, -700), 6);
    await settingsFrom(t.database, saturday, { tdsPercent: 0, adminChargePercent: 0, payOnWeekends: true });
    await settingsFrom(t.database, addDays(saturday, 1), { tdsPercent: 0, adminChargePercent: 0, payOnWeekends: false });
    const userId = await member(t.database);
    await membership(t.database, userId, { dailyPaise: 1000, capPaise: 100_000, durationDays: 30, startsOn: addDays(saturday, -1) });
    expect((await post('/preview', 'daily_payout', saturday)).statusCode).toBe(200);
    expect((await post('', 'daily_payout', saturday)).statusCode).toBe(201);
    expect((await post('', 'daily_payout', addDays(saturday, 1))).statusCode).toBe(400);
  });
});

function timeline(versions: [string, Partial<IncomeSettings>][]): SettingsTimeline {
  const list = versions.map(([from, changes], i) => ({ versionId: i + 1, from, settings: { ...DEFAULT_INCOME_SETTINGS, ...changes } }));
  return { versions: list, on: (day) => list.findLast((v) => v.from <= day)?.settings ?? DEFAULT_INCOME_SETTINGS };
}

describe('finding 5: royalty periods never overlap', () => {
  it('a change of period type applies from the end of the period under way (the issue\'s dates)', () => {
    // Monthly, then weekly from Saturday 04-03-2028.
    const toWeekly = timeline([['2027-01-01', {}], ['2028-03-04', { royaltyPeriod: 'weekly' }]]);
    const p = (day: string, tl = toWeekly) => periodIn(royalty, day, tl);
    expect(p('2028-02-29')).toEqual({ start: '2028-02-01', end: '2028-02-29' });
    expect(p('2028-03-04')).toEqual({ start: '2028-03-01', end: '2028-03-31' }); // March began monthly: it stays whole
    expect(p('2028-03-31')).toEqual({ start: '2028-03-01', end: '2028-03-31' });
    expect(p('2028-04-01')).toEqual({ start: '2028-04-01', end: '2028-04-02' }); // the first week is short (Saturday, Sunday)
    expect(p('2028-04-02')).toEqual({ start: '2028-04-01', end: '2028-04-02' });
    expect(p('2028-04-05')).toEqual({ start: '2028-04-03', end: '2028-04-09' }); // then ISO weeks
    expect(p('2029-01-01')).toEqual({ start: '2029-01-01', end: '2029-01-07' });
    // Weekly, then monthly from Wednesday 15-03-2028: the week under way ends, then a short month.
    const toMonthly = timeline([['2027-01-01', { royaltyPeriod: 'weekly' }], ['2028-03-15', {}]]);
    expect(p('2028-03-15', toMonthly)).toEqual({ start: '2028-03-13', end: '2028-03-19' });
    expect(p('2028-03-20', toMonthly)).toEqual({ start: '2028-03-20', end: '2028-03-31' });
    expect(p('2028-04-10', toMonthly)).toEqual({ start: '2028-04-01', end: '2028-04-30' });
    // Switched to weekly and back within one month: the month stays whole, nothing changes.
    const andBack = timeline([['2028-03-04', { royaltyPeriod: 'weekly' }], ['2028-03-10', {}]]);
    expect(p('2028-03-20', andBack)).toEqual({ start: '2028-03-01', end: '2028-03-31' });
    expect(p('2028-04-20', andBack)).toEqual({ start: '2028-04-01', end: '2028-04-30' });
    // Every day of two years falls in exactly one period, and the periods follow each other.
    const seen: { start: string; end: string }[] = [];
    for (let day = '2027-12-01'; day <= '2029-12-31'; day = addDays(day, 1)) {
      const period = p(day);
      expect(period.start <= day && day <= period.end).toBe(true);
      if (seen.at(-1)?.start !== period.start) {
        if (seen.length > 0) expect(period.start).toBe(addDays(seen.at(-1)!.end, 1));
        seen.push(period);
      }
    }
  });

  it('the attacker\'s steps: monthly→weekly from 4 days after a month\'s royalty run; the next run does not take back its last days', async () => {
    // A past month P whose 4th day after its end is a Friday, Saturday or Sunday (so that the ISO
    // week of that day begins inside P, as 04-03-2028 does after February 2028).
    let p = monthOf(addDays(monthOf(now).start, -40));
    while (![0, 5, 6].includes(weekday(addDays(p.end, 4)))) p = monthOf(addDays(p.start, -1));
    const change = addDays(p.end, 4);
    await settingsFrom(t.database, change, { tdsPercent: 0, adminChargePercent: 0, royaltyPeriod: 'weekly' });

    const first = await post('', 'royalty', p.start);
    expect(first.statusCode).toBe(201);
    expect(first.json().data).toMatchObject({ periodStart: wire(p.start), periodEnd: wire(p.end) });
    await runsSettled(t.database);

    // The royalty run of the change's day is the month under way (it began monthly), not a week reaching back into P.
    const next = monthOf(change);
    const preview = await post('/preview', 'royalty', change);
    expect(preview.statusCode).toBe(200);
    expect(preview.json().data).toMatchObject({ periodStart: wire(next.start), periodEnd: wire(next.end) });
    const second = await post('', 'royalty', change);
    expect(second.statusCode).toBe(201);
    expect(second.json().data).toMatchObject({ periodStart: wire(next.start), periodEnd: wire(next.end) });
    await runsSettled(t.database);
    // Weekly from the day after that month: a first (possibly short) week up to its Sunday.
    const afterwards = addDays(next.end, 1);
    if (afterwards <= now) {
      const week = await post('/preview', 'royalty', afterwards);
      expect(week.json().data.periodStart).toBe(wire(afterwards));
      expect(weekday(week.json().data.periodEnd.split('-').reverse().join('-'))).toBe(0);
    }
    const shared = await t.database.query(`
      select a.run_id from income_runs a join income_runs b on a.kind = b.kind and a.run_id < b.run_id
       where a.kind = 'royalty' and a.status <> 'reversed' and b.status <> 'reversed'
         and a.period_start <= b.period_end and b.period_start <= a.period_end`);
    expect(shared).toEqual([]);
  });

  it('a run whose period overlaps a run of the same kind (made before this rule) is refused with 409', async () => {
    // A weekly royalty run from before the rule, reaching into a month: that month cannot be run.
    const month = monthOf(addDays(monthOf(now).start, -400));
    const weekStart = addDays(month.start, -3);
    await t.database.query(
      `insert into income_runs (kind, period_start, period_end, status, settings) values ('royalty', $1::date, $2::date, 'completed', '{}'::jsonb)`,
      [weekStart, addDays(weekStart, 6)]);
    const [{ run_id: legacy }] = await t.database.query<{ run_id: string }>(
      `select run_id::text from income_runs where kind = 'royalty' and period_start = $1::date`, [weekStart]);
    const message = `The royalty period ${wire(month.start)} to ${wire(month.end)} overlaps run ${legacy} for ${wire(weekStart)} to ${wire(addDays(weekStart, 6))}: a day is shared by one period only`;
    const started = await post('', 'royalty', month.start);
    expect(started.statusCode).toBe(409);
    expect(started.json()).toEqual({ success: false, message });
    expect((await post('/preview', 'royalty', month.start)).json()).toEqual({ success: false, message });
    // Once that run is reversed, the month may be run.
    await t.database.query(`update income_runs set status = 'reversed' where run_id = $1`, [legacy]);
    expect((await post('', 'royalty', month.start)).statusCode).toBe(201);
  });
});

describe('the schedule with a royalty period it cannot run', () => {
  let s: TestContext;
  beforeAll(async () => {
    s = await createTestApp();
  });
  afterAll(() => s.close());

  it('a kind refused for an overlap does not hold up the kinds after it; the tick reports it', async () => {
    const day0 = await today(s.database);
    await settingsFrom(s.database, addDays(day0, -100), { tdsPercent: 0, adminChargePercent: 0 });
    const userId = await member(s.database);
    await membership(s.database, userId, { dailyPaise: 1000, capPaise: 100_000, durationDays: 90, startsOn: addDays(day0, -40) });
    // A weekly royalty run from before the rule, across the end of the first month the schedule reaches.
    const month = monthOf(addDays(day0, -40));
    await s.database.query(
      `insert into income_runs (kind, period_start, period_end, status, settings) values ('royalty', $1::date, $2::date, 'completed', '{}'::jsonb)`,
      [addDays(month.end, -2), addDays(month.end, 4)]);
    const tick = scheduleTick(s.database, { now: { day: day0, time: '09:00' }, kinds: ['royalty', 'monthly_reward'] });
    await expect(tick).rejects.toThrow(/^income schedule: royalty: The royalty period .* overlaps run \d+ for /);
    const rewards = await s.database.query<{ day: string }>(`select period_start::text as day from income_runs where kind = 'monthly_reward' and status = 'completed'`);
    expect(rewards.map((r) => r.day)).toContain(month.start);
  });
});
