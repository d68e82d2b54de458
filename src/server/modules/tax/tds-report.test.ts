import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { post, postEntry, postSet } from '../../db/books.ts';
import { moneyInvariantViolations } from '../../lib/money-invariants.ts';
import { accountWithPermissions } from '../../test/accounts.ts';
import { bearer, createTestApp, type TestContext } from '../../test/harness.ts';
import { moneyHeaders } from '../wallet/money-test-kit.ts';
import { addDays, member, membership, runDay, settingsFrom, today } from '../income/runs/payout-test-kit.ts';

/**
 * Issue 25, the TDS report at scale (docs/tax.md): which members have TDS in a quarter and the
 * quarter's totals come from the rollup tds_quarter_members / tds_quarter_totals, kept by a trigger
 * on the ledger (drizzle/functions/tds_quarters.sql); each member's rows from the ledger. The
 * quarter is India days; a reversed payout leaves the quarter it was paid in; the rollup equals
 * the ledger added up again with the migration's rules (drizzle/0034).
 */
let t: TestContext;
let token: string;
let accountant: string;
let now: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  accountant = await accountWithPermissions(t.database, ['reports_view']);
  now = await today(t.database);
  await settingsFrom(t.database, addDays(now, -400), { tdsPercent: 5, tdsWithoutPanPercent: 20, adminChargePercent: 5, payOnWeekends: true });
});
afterAll(() => t.close());
afterEach(async () => {
  expect(await moneyInvariantViolations(t.database)).toEqual([]);
});

const get = (url: string) => t.app.inject({ method: 'GET', url: `/api${url}`, headers: bearer(accountant) });
const report = async (year: number, quarter: number, page = 1, limit = 25) => {
  const res = await get(`/tax/tds?year=${year}&quarter=${quarter}&page=${page}&limit=${limit}`);
  expect(res.statusCode).toBe(200);
  return res.json();
};
const csvLines = async (year: number, quarter: number) => {
  const res = await get(`/tax/tds.csv?year=${year}&quarter=${quarter}`);
  expect(res.statusCode).toBe(200);
  return res.body.replace(/^\uFEFF/, '').trim().split('\r\n').slice(1);
};

/** A run row of the daily payout with its two rates (as a run's state records them). */
async function runRow(day: string, tdsBp: number, tdsWithoutPanBp: number): Promise<number> {
  const [row] = await t.database.query<{ run_id: string }>(
    `insert into income_runs (kind, period_start, period_end, settings, status, state)
     values ('daily_payout', $1::date, $1::date, '{}'::jsonb, 'failed', $2::jsonb) returning run_id::text`,
    [day, JSON.stringify({ tdsBp, tdsWithoutPanBp })]);
  return Number(row.run_id);
}

/** A member's daily payout at an instant: +gross and −TDS, through the posting function, dated. */
async function paidAt(runId: number, userId: number, at: string, grossPaise: number, tdsPaise: number) {
  await postSet(t.database.db, { kind: 'daily_payout', runId }, {
    perLine: true,
    lines: sql`select * from (values
      (0, null::int8, ${userId}::int8, 'daily_payout'::text, ${grossPaise}::int8, null::int, 'Daily payout'::text, null::int8, ${at}::timestamptz),
      (1, null::int8, ${userId}::int8, 'tds'::text, ${-tdsPaise}::int8, null::int, 'TDS on daily payout'::text, null::int8, ${at}::timestamptz)
    ) v(ord, id, user_id, kind, amount_paise, batch_id, description, reversal_of, created_at)`,
  });
}

describe('the TDS report from its rollup', () => {
  it('takes a quarter\u2019s India days (23:59 and 00:00 IST fall either side), pages it, adds it up and writes the CSV, with and without a PAN', async () => {
    const withPan = await member(t.database, { name: 'Pan Holder' });
    const noPan = await member(t.database, { name: 'No Pan' });
    await t.database.query(`update users set pan = 'PQRST6789U' where user_id = $1`, [withPan]);
    const run = await runRow('2020-06-30', 500, 2000);
    // 30 June 2020 23:59 IST (18:29 UTC): Q1 of FY 2020-21. One minute later, 1 July 00:00 IST: Q2.
    await paidAt(run, withPan, '2020-06-30T18:29:00Z', 10_000, 500);
    await paidAt(run, noPan, '2020-06-30T18:29:00Z', 8_000, 1_600);
    await paidAt(run, withPan, '2020-06-30T18:30:00Z', 20_000, 1_000);
    // 31 March 2021 23:59 IST: Q4 of FY 2020-21; 1 April 2021 00:00 IST: Q1 of FY 2021-22.
    await paidAt(run, noPan, '2021-03-31T18:29:00Z', 5_000, 1_000);
    await paidAt(run, noPan, '2021-03-31T18:30:00Z', 4_000, 800);

    const q1 = await report(2020, 1);
    expect(q1.total).toBe(2);
    expect(q1.data).toEqual([
      { userId: withPan, name: 'Pan Holder', pan: 'PQRST****U', gross: 100, tds: 5, days: 1, firstDate: '30-06-2020', lastDate: '30-06-2020', sections: ['194H'] },
      { userId: noPan, name: 'No Pan', pan: null, gross: 80, tds: 16, days: 1, firstDate: '30-06-2020', lastDate: '30-06-2020', sections: ['206AA'] },
    ]);
    expect(q1.summary).toEqual({
      label: 'Q1 (Apr–Jun) FY 2020-21', from: '01-04-2020', to: '30-06-2020', members: 2, gross: 180, tds: 21, tdsWithoutPan: 16,
    });
    // Paged by user id: the second page of one is the second member, the total the quarter's.
    const second = await report(2020, 1, 2, 1);
    expect(second.data.map((r: { userId: number }) => r.userId)).toEqual([noPan]);
    expect(second.total).toBe(2);
    expect((await report(2020, 1, 3, 1)).data).toEqual([]);
    expect(await csvLines(2020, 1)).toEqual([
      `${withPan},Pan Holder,PQRST6789U,30-06-2020,100.00,5.00,5.00,194H,No,${run}`,
      `${noPan},No Pan,PANNOTAVBL,30-06-2020,80.00,16.00,20.00,206AA,Yes,${run}`,
    ]);

    const q2 = await report(2020, 2);
    expect(q2.data).toMatchObject([{ userId: withPan, gross: 200, tds: 10, firstDate: '01-07-2020' }]);
    expect(q2.summary).toMatchObject({ members: 1, gross: 200, tds: 10, tdsWithoutPan: 0 });
    expect((await report(2020, 4)).summary).toMatchObject({ members: 1, gross: 50, tds: 10, tdsWithoutPan: 10 });
    expect(await csvLines(2020, 4)).toEqual([`${noPan},No Pan,PANNOTAVBL,31-03-2021,50.00,10.00,20.00,206AA,Yes,${run}`]);
    expect(await csvLines(2021, 1)).toEqual([`${noPan},No Pan,PANNOTAVBL,01-04-2021,40.00,8.00,20.00,206AA,Yes,${run}`]);

    // Reversed today, the Q2 payout leaves Q2 (the quarter it was paid in), not today's quarter.
    const lines = await t.database.query<{ id: string; kind: 'tds'; amount_paise: string }>(
      `select id::text, kind, amount_paise::text from ledger_entries where user_id = $1 and created_at = '2020-06-30T18:30:00Z' order by id`, [withPan]);
    await post(t.database.db, { kind: 'reversal', runId: run }, lines.map((l) => ({
      userId: withPan, kind: l.kind, amountPaise: -Number(l.amount_paise), reversalOf: Number(l.id),
    })));
    const reversed = await report(2020, 2);
    expect(reversed).toMatchObject({ data: [], total: 0, summary: { members: 0, gross: 0, tds: 0, tdsWithoutPan: 0 } });
    expect(await csvLines(2020, 2)).toEqual([]);
    expect((await report(2020, 1)).summary).toMatchObject({ members: 2, gross: 180, tds: 21 });
  });

  it('shows a run\u2019s deductions, and none of a reversed run\u2019s, even when its credit could not all be taken back', async () => {
    const day = addDays(now, -3);
    const [year, month] = day.split('-').map(Number);
    const q = month >= 4 ? { year, quarter: Math.floor((month - 4) / 3) + 1 } : { year: year - 1, quarter: 4 };
    const before = (await report(q.year, q.quarter)).summary;
    const keeper = await member(t.database, { name: 'Keeper' });
    const spender = await member(t.database, { name: 'Spender' });
    await t.database.query(`update users set pan = 'KEEPR1234K' where user_id = $1`, [keeper]);
    await membership(t.database, keeper, { dailyPaise: 10_000, capPaise: 1_000_000, durationDays: 5, startsOn: day });
    await membership(t.database, spender, { dailyPaise: 10_000, capPaise: 1_000_000, durationDays: 5, startsOn: day });
    const { run } = await runDay(t, token, day);
    expect(run.status).toBe('completed');
    // ₹100 each: 5 % (₹5) with a PAN, 20 % (₹20) without, the admin charge 5 %.
    const paid = await report(q.year, q.quarter, 1, 100);
    const rowsOf = (r: { data: { userId: number }[] }) => r.data.filter((x) => x.userId === keeper || x.userId === spender);
    expect(rowsOf(paid)).toMatchObject([
      { userId: keeper, gross: 100, tds: 5, sections: ['194H'] },
      { userId: spender, gross: 100, tds: 20, sections: ['206AA'] },
    ]);
    expect(paid.summary.members - before.members).toBe(2);
    expect(Math.round((paid.summary.tds - before.tds) * 100)).toBe(2_500);
    expect(Math.round((paid.summary.tdsWithoutPan - before.tdsWithoutPan) * 100)).toBe(2_000);

    // The spender took ₹70 of the ₹75 out: the reversal can't take the credit all back (a shortfall).
    await postEntry(t.database.db, { userId: spender, kind: 'wallet_withdrawal', amountPaise: -7_000 });
    const reversed = await t.app.inject({
      method: 'POST', url: `/api/income/runs/${run.runId}/reverse`, headers: moneyHeaders(token), payload: { remarks: 'Wrong plan' },
    });
    expect(reversed.statusCode).toBe(200);
    const after = await report(q.year, q.quarter, 1, 100);
    expect(rowsOf(after)).toEqual([]);
    expect(after.summary).toEqual(before);
    expect((await csvLines(q.year, q.quarter)).filter((l) => l.startsWith(`${keeper},`) || l.startsWith(`${spender},`))).toEqual([]);
  });

  it('counts a member once in a quarter however many days the run pays it, and again after a reversal took it out', async () => {
    const days = [addDays(now, -8), addDays(now, -7)];
    const quarterOf = (d: string) => {
      const [y, m] = d.split('-').map(Number);
      return m >= 4 ? { year: y, quarter: Math.floor((m - 4) / 3) + 1 } : { year: y - 1, quarter: 4 };
    };
    // The run's lines are dated when it runs (today): both days fall in today's quarter.
    const q = quarterOf(now);
    const before = (await report(q.year, q.quarter)).summary;
    const payee = await member(t.database, { name: 'Twice Paid' });
    await t.database.query(`update users set pan = 'TWICE1234P' where user_id = $1`, [payee]);
    await membership(t.database, payee, { dailyPaise: 20_000, capPaise: 1_000_000, durationDays: 30, startsOn: days[0] });
    const first = (await runDay(t, token, days[0])).run;
    const second = (await runDay(t, token, days[1])).run;
    expect([first.status, second.status]).toEqual(['completed', 'completed']);
    const paid = (await report(q.year, q.quarter)).summary;
    expect(paid.members - before.members).toBe(1);
    expect(Math.round((paid.tds - before.tds) * 100)).toBe(2_000); // 5 % of ₹200, twice
    // Both runs reversed: the member leaves the quarter; run again, it is back once.
    for (const run of [first, second]) {
      const res = await t.app.inject({ method: 'POST', url: `/api/income/runs/${run.runId}/reverse`, headers: moneyHeaders(token), payload: { remarks: 'Redo' } });
      expect(res.statusCode).toBe(200);
    }
    expect((await report(q.year, q.quarter)).summary).toEqual(before);
    expect((await runDay(t, token, days[0])).run.status).toBe('completed');
    const again = (await report(q.year, q.quarter)).summary;
    expect(again.members - before.members).toBe(1);
    expect(Math.round((again.tds - before.tds) * 100)).toBe(1_000);
  });

  it('equals the ledger added up again with the migration\u2019s rules, member by member and in total', async () => {
    const migration = fs.readFileSync(path.resolve(import.meta.dirname, '../../../../drizzle/0034_tds_quarters.sql'), 'utf8');
    const rebuild = migration.split('--> statement-breakpoint').find((s) => s.includes('CREATE TEMP TABLE "tds_rebuilt"'))!;
    await t.database.exec(rebuild);
    try {
      const [same] = await t.database.query<{ members: boolean; totals: boolean; count: number }>(`
        select (select count(*) from tds_rebuilt where tds <> 0)::int as count,
               not exists (select quarter, user_id from tds_quarter_members except all select quarter, user_id from tds_rebuilt where tds <> 0)
               and not exists (select quarter, user_id from tds_rebuilt where tds <> 0 except all select quarter, user_id from tds_quarter_members) as members,
               not exists (
                 select quarter, count(*) filter (where tds <> 0), sum(gross), sum(tds), sum(nopan) from tds_rebuilt group by 1
                 except all
                 select quarter, sum(members), sum(gross_paise), sum(tds_paise), sum(tds_without_pan_paise) from tds_quarter_totals group by 1
               ) as totals`);
      expect(same).toEqual({ count: expect.any(Number), members: true, totals: true });
      expect(same.count).toBeGreaterThanOrEqual(5);
    } finally {
      await t.database.exec('drop table tds_rebuilt');
    }
  });
});
