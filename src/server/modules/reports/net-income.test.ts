import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoToWireDate } from '../../../contract/common.ts';
import { postEntry } from '../../db/books.ts';
import { CAPTURED_QUERIES_HEADER, decodeCapturedQueries } from '../../db/query-timing.ts';
import { bearer, createTestApp, type TestContext } from '../../test/harness.ts';
import { moneyHeaders } from '../wallet/money-test-kit.ts';
import { member, membership, runDay, settingsFrom, today } from '../income/runs/payout-test-kit.ts';

/**
 * Issue 24: the reports show what each member received (net of TDS and admin charge), reversals as
 * rows of their own (negative, labelled), no ₹0.00 rows; level income on a report; sorting by name.
 * Both readings agree: a whole month (the rollup) and a range inside it (the ledger).
 */
let t: TestContext;
let token: string;
let day: string;
let month: { from: string; to: string; inside: string };
beforeAll(async () => {
  t = await createTestApp({ config: { approvalThresholdPaise: 1_000_000, captureQueries: true } });
  token = await t.login();
  const now = await today(t.database);
  day = `${now.slice(0, 8)}01`; // never after today
  const last = new Date(Date.UTC(Number(now.slice(0, 4)), Number(now.slice(5, 7)), 0)).getUTCDate();
  month = { from: isoToWireDate(`${now.slice(0, 8)}01`), to: isoToWireDate(`${now.slice(0, 8)}${last}`), inside: isoToWireDate(`${now.slice(0, 8)}${last - 1}`) };
  await settingsFrom(t.database, day, { tdsPercent: 5, adminChargePercent: 2.5, payOnWeekends: true });
});
afterAll(() => t.close());

const get = async (url: string) => (await t.app.inject({ method: 'GET', url, headers: bearer(token) })).json();

describe('income reports, net and with reversals', () => {
  it('shows net received per member, a reversal as its own negative row, the same from the rollup and from the ledger', async () => {
    const zara = await member(t.database, { name: 'Zara Net' });
    const amit = await member(t.database, { name: 'Amit Net' });
    for (const userId of [zara, amit]) {
      await membership(t.database, userId, { dailyPaise: 1000, capPaise: 1_000_000, durationDays: 3, startsOn: day });
    }
    const { run } = await runDay(t, token, day);
    expect(run.totals).toMatchObject({ paid: 2, gross: 20, net: 18.5 });
    const reversed = await t.app.inject({
      method: 'POST', url: `/api/income/runs/${run.runId}/reverse`, headers: moneyHeaders(token), payload: { remarks: 'Wrong terms' },
    });
    expect(reversed.statusCode).toBe(200);
    await runDay(t, token, day); // the day again, under four eyes (approved by the kit)

    for (const to of [month.to, month.inside]) {
      const body = await get(`/api/rewards/rewardsDaily?fromDate=${month.from}&toDate=${to}&transactionType=dailyPayout&sort=userName`);
      expect(body.users.map((u: { userName: string; amount: number; transactions: number }) => [u.userName, u.amount, u.transactions]), to)
        .toEqual([['Amit Net', 18.5, 2], ['Zara Net', 18.5, 2]]);
      expect(body.reversals, to).toEqual(expect.arrayContaining([
        expect.objectContaining({ userId: amit, amount: -9.25, label: expect.stringMatching(/^Reversal/) }),
        expect.objectContaining({ userId: zara, amount: -9.25 }),
      ]));
      expect(body.users.every((u: { amount: number }) => u.amount !== 0)).toBe(true);
      expect(body.totalAmount, to).toBe(18.5);
      expect(body.totalUsers, to).toBe(2);
      const down = await get(`/api/rewards/rewardsDaily?fromDate=${month.from}&toDate=${to}&transactionType=dailyPayout&sort=-userName`);
      expect(down.users.map((u: { userName: string }) => u.userName)).toEqual(['Zara Net', 'Amit Net']);
      // Largest first (the default): the same receivers, names and reversals.
      const byAmount = await get(`/api/rewards/rewardsDaily?fromDate=${month.from}&toDate=${to}&transactionType=dailyPayout`);
      expect(byAmount.users.map((u: { userName: string; amount: number }) => [u.userName, u.amount]).sort(), to)
        .toEqual([['Amit Net', 18.5], ['Zara Net', 18.5]]);
      expect(byAmount.reversals.map((r: { userName: string; amount: number }) => [r.userName, r.amount]).sort(), to)
        .toEqual([['Amit Net', -9.25], ['Zara Net', -9.25]]);
    }
    // The rollup's totals ride on the page's rows (issue 23): a page past the end asks for them on
    // their own, and a range of two whole months (the previous one holds nothing) sums the months.
    const before = new Date(Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 2, 1)).toISOString().slice(0, 10);
    for (const from of [month.from, isoToWireDate(before)]) {
      const url = `/api/rewards/rewardsDaily?fromDate=${from}&toDate=${month.to}&transactionType=dailyPayout`;
      const first = await get(url);
      expect(first.users.map((u: { userName: string; amount: number; transactions: number }) => [u.userName, u.amount, u.transactions]).sort(), from)
        .toEqual([['Amit Net', 18.5, 2], ['Zara Net', 18.5, 2]]);
      expect(first.reversals.map((r: { userName: string; amount: number }) => [r.userName, r.amount]).sort(), from)
        .toEqual([['Amit Net', -9.25], ['Zara Net', -9.25]]);
      // Two statements (issue 23): the page with the totals and the batches, then the page's credits.
      const captured = await t.app.inject({ method: 'GET', url, headers: { ...bearer(token), 'x-capture-queries': '1' } });
      const statements = decodeCapturedQueries(String(captured.headers[CAPTURED_QUERIES_HEADER])).filter((q) => !/\bsessions\b/.test(q.text));
      expect(statements.map((q) => q.rows), from).toEqual([2, expect.any(Number)]);
      expect(statements[1].text, from).toMatch(/from ledger_entries/);
      const past = await get(`${url}&page=50`);
      expect(past.users, from).toEqual([]);
      expect([past.totalAmount, past.totalUsers, past.transactions], from).toEqual([18.5, 2, first.transactions]);
      expect(first.transactions, from).toBeGreaterThan(0);
    }
  });

  it('reports level income', async () => {
    const upline = await member(t.database, { name: 'Level Upline' });
    await postEntry(t.database.db, { userId: upline, kind: 'level_income', amountPaise: 12_345, description: 'Level 1 income' });
    const now = isoToWireDate(await today(t.database));
    const body = await get(`/api/rewards/rewardsDaily?fromDate=${now}&toDate=${now}&transactionType=levelIncome`);
    expect(body).toMatchObject({ success: true, totalAmount: 123.45, totalUsers: 1, transactions: 1, data: [] });
    expect(body.users).toMatchObject([{ userId: upline, userName: 'Level Upline', amount: 123.45 }]);
  });

  it('exports level income as CSV: its lines from the ledger (it has no batches), level, amount and India time', async () => {
    const upline = await member(t.database, { name: 'Level Csv Upline' });
    await postEntry(t.database.db, {
      userId: upline, kind: 'level_income', amountPaise: 20_000, description: 'Level 2 income on the membership of member 1',
    });
    const now = isoToWireDate(await today(t.database));
    const res = await t.app.inject({
      method: 'GET', url: `/api/rewards/rewardsDaily.csv?fromDate=${now}&toDate=${now}&transactionType=levelIncome&userName=Csv`,
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(200);
    const lines = res.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1].split(',')).toEqual([
      '', 'Level income', expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), String(upline), 'Level Csv Upline', 'No Rank', 'Level 2', '200.00',
      expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?\+05:30$/),
    ]);
  });
});
