import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { moneyInvariantViolations } from '../../../lib/money-invariants.ts';
import { bearer, createTestApp, type TestContext } from '../../../test/harness.ts';
import { moneyHeaders } from '../../wallet/money-test-kit.ts';
import { addDays, member, membership, reversedPayoutsOf, runDay, settingsFrom, today, wire } from './payout-test-kit.ts';

/**
 * Issue 24, "an honest trail": a run's lines per member (paged, CSV), TDS and admin charge apart,
 * Pay Now moving the run's counts, the reversal's preview equal to what the reversal does (Pay Now
 * lines included), reversed payouts kept and shown with who reversed them and why, names for ids.
 */
let t: TestContext;
let token: string;
let now: string;
beforeAll(async () => {
  t = await createTestApp({ config: { approvalThresholdPaise: 50_000 } });
  token = await t.login();
  now = await today(t.database);
});
afterAll(() => t.close());
afterEach(async () => {
  expect(await moneyInvariantViolations(t.database)).toEqual([]);
});

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });

async function withBank(userId: number) {
  await t.database.query(
    `insert into bank_accounts (user_id, account_holder_name, account_number, ifsc, bank, is_primary) values ($1, 'A', $2, 'HDFC0001234', 'HDFC', true)`,
    [userId, String(100000000 + userId)],
  );
}

describe('the trail of a run', () => {
  it('lists lines per member, pays now into the run\u2019s counts, previews its reversal exactly and keeps the reversed payouts', async () => {
    const day = addDays(now, -30);
    await settingsFrom(t.database, day, { tdsPercent: 5, adminChargePercent: 2.5, payOnWeekends: true, payTo: 'bank' });
    const paid = await member(t.database, { name: 'Asha Paid' });
    await withBank(paid);
    const later = await member(t.database, { name: 'Bina Later' });
    const unpaid1 = await member(t.database, { name: 'Chitra Unpaid' });
    const unpaid2 = await member(t.database, { name: 'Deepa Unpaid' });
    for (const userId of [paid, later, unpaid1, unpaid2]) {
      await membership(t.database, userId, { dailyPaise: 1000, capPaise: 1_000_000, durationDays: 5, startsOn: day });
    }
    const { run } = await runDay(t, token, day);
    expect(run.totals).toMatchObject({ paid: 1, failed: 3, gross: 10, tds: 0.5, adminCharge: 0.25, deductions: 0.75, net: 9.25 });

    // Pay Now on one failure: the run's counts follow.
    const payouts = (await get(`/api/wallets/dailyPayout?fromDate=${wire(day)}&toDate=${wire(day)}&sort=name`)).json();
    expect(payouts.data.map((p: { userName: string }) => p.userName)).toEqual(['Asha Paid', 'Bina Later', 'Chitra Unpaid', 'Deepa Unpaid']);
    expect(payouts.data[0]).toMatchObject({ gross: 10, tds: 0.5, adminCharge: 0.25, amount: 9.25, status: 'Success', runId: run.runId });
    const failure = payouts.data[1];
    const payNow = await t.app.inject({
      method: 'POST', url: '/api/transferAdmin', headers: moneyHeaders(token),
      payload: { userId: later, amount: failure.amount, typeIncome: 'dailyPayout', payoutId: failure.id },
    });
    expect(payNow.statusCode).toBe(200);
    const afterPay = (await get(`/api/income/runs/${run.runId}`)).json().data;
    expect(afterPay.totals).toMatchObject({ paid: 2, failed: 2, gross: 20, tds: 1, adminCharge: 0.5, net: 18.5, failedAmount: 18.5 });

    // Lines per member, paged, and as CSV.
    const page1 = (await get(`/api/income/runs/${run.runId}/lines?page=1&limit=3`)).json();
    expect(page1.total).toBe(4);
    expect(page1.data).toHaveLength(3);
    expect(page1.data[0]).toMatchObject({ userId: paid, userName: 'Asha Paid', status: 'Success', gross: 10, tds: 0.5, adminCharge: 0.25, net: 9.25 });
    expect(page1.data[1]).toMatchObject({ userId: later, status: 'Success', paidNowByName: expect.any(String) });
    const page2 = (await get(`/api/income/runs/${run.runId}/lines?page=2&limit=3`)).json();
    expect(page2.data.map((l: { userId: number }) => l.userId)).toEqual([unpaid2]);
    expect(page2.data[0]).toMatchObject({ status: 'Failure', reason: 'No primary bank account', net: 9.25 });
    const csv = await get(`/api/income/runs/${run.runId}/lines.csv`);
    expect(csv.statusCode).toBe(200);
    const rows = csv.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(rows[0]).toBe('User ID,User Name,Status,Gross,TDS,Admin Charge,Net,Reason,Paid Now By,Before Reversal');
    expect(rows).toHaveLength(5);
    expect(rows[1]).toBe(`${paid},Asha Paid,Success,10.00,0.50,0.25,9.25,,,`);

    // The preview states what the reversal will do, Pay Now lines included, and the reversal does exactly that.
    const preview = (await get(`/api/income/runs/${run.runId}/reversal-preview`)).json().data;
    // Paying to bank (issue 25): the nets went on as bank_payout lines no batch holds yet, so they are
    // reversed too: 4 lines a member, and no wallet moves (what was to send is not sent).
    expect(preview).toEqual({
      runId: run.runId, members: 2, lines: 8, gross: 20, deductions: 1.5, net: 18.5, takenBack: 0, shortfall: 0, shortfallMembers: 0,
      payNowLines: 4, payNowMembers: 1, unpaidFailures: 2, bankUnsent: 18.5, bankSent: 0,
    });
    const reversed = await t.app.inject({
      method: 'POST', url: `/api/income/runs/${run.runId}/reverse`, headers: moneyHeaders(token), payload: { remarks: 'Wrong plan terms' },
    });
    expect(reversed.statusCode).toBe(200);
    const detail = (await get(`/api/income/runs/${run.runId}`)).json().data;
    const [me] = await t.database.query<{ name: string }>('select full_name as name from users where user_id = $1', [detail.reversedBy]);
    expect(detail.reversedByName).toBe(me.name);
    expect(detail.reversal).toEqual({
      remarks: 'Wrong plan terms', lines: preview.lines, members: preview.members, shortfall: 0, requestedByName: me.name, approved: false,
    });
    const [ledger] = await t.database.query<{ n: number; back: string }>(
      'select count(*)::int as n, sum(amount_paise)::text as back from ledger_entries where run_id = $1 and reversal_of is not null', [run.runId]);
    expect(ledger).toEqual({ n: preview.lines, back: String(-preview.takenBack * 100) });

    // The day still shows its payouts, marked Reversed, with who and why; unpaid failures too.
    const day2 = (await get(`/api/wallets/dailyPayout?fromDate=${wire(day)}&toDate=${wire(day)}&sort=name`)).json();
    expect(day2.total).toBe(4);
    expect(day2.data.map((p: { status: string; reversedStatus: string }) => [p.status, p.reversedStatus])).toEqual([
      ['Reversed', 'Success'], ['Reversed', 'Success'], ['Reversed', 'Failure'], ['Reversed', 'Failure'],
    ]);
    expect(day2.data[0]).toMatchObject({ reversedByName: me.name, reversalReason: 'Wrong plan terms' });
    expect(day2.totals).toMatchObject({ count: 4, reversed: 4, successful: 0, failed: 0, amount: 0 });
    expect(await reversedPayoutsOf(t.database, unpaid1)).toEqual([
      { day, amount: '925', status: 'Reversed', before: 'Failure', by: String(detail.reversedBy), reason: 'Wrong plan terms' },
    ]);
    const onlyReversed = (await get(`/api/wallets/dailyPayout?fromDate=${wire(day)}&toDate=${wire(day)}&status=Reversed`)).json();
    expect(onlyReversed.total).toBe(4);
    // A reversed payout is never paid.
    const refused = await t.app.inject({
      method: 'POST', url: '/api/transferAdmin', headers: moneyHeaders(token),
      payload: { userId: unpaid1, amount: 9.25, typeIncome: 'dailyPayout', payoutId: day2.data[2].id },
    });
    expect(refused.json()).toEqual({ success: false, message: `Payout ${day2.data[2].id} was reversed with its run: it cannot be paid` });

    // The day runs again beside its reversed rows (four eyes: runDay approves the re-run).
    const { run: again } = await runDay(t, token, day);
    expect(again.totals).toMatchObject({ paid: 1, failed: 3 });
    expect((await get(`/api/wallets/dailyPayout?fromDate=${wire(day)}&toDate=${wire(day)}`)).json().total).toBe(8);
  });

  it('exports the runs list as CSV with names and India times', async () => {
    const res = await get('/api/income/runs.csv?kind=daily_payout');
    expect(res.statusCode).toBe(200);
    const rows = res.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(rows[0]).toBe('Run ID,Kind,Period Start,Period End,Status,Paid,Failed,Gross,TDS,Admin Charge,Net,Started By,Started At,Finished At,Reversed By,Reversed At');
    expect(rows.length).toBeGreaterThan(1);
    expect(rows[1]).toMatch(/\+05:30/);
    expect((await t.app.inject({ method: 'GET', url: '/api/income/runs.csv' })).statusCode).toBe(401);
  });

  it('says why a preview pays nothing', async () => {
    // A day before the members' memberships start (they start 30 days ago), with weekends paid.
    const day = addDays(now, -31);
    await settingsFrom(t.database, day, { payOnWeekends: true });
    const res0 = await t.app.inject({
      method: 'POST', url: '/api/income/runs/preview', headers: bearer(token), payload: { kind: 'daily_payout', date: wire(addDays(now, -300)) },
    });
    expect(res0.json().data?.nothingBecause ?? res0.json().message).toBeTruthy();
    const userId = await member(t.database, { name: 'Esha Later' });
    await membership(t.database, userId, { dailyPaise: 1000, capPaise: 1_000_000, durationDays: 5, startsOn: addDays(day, 3) });
    const res = await t.app.inject({
      method: 'POST', url: '/api/income/runs/preview', headers: { ...bearer(token), 'idempotency-key': randomUUID() },
      payload: { kind: 'daily_payout', date: wire(day) },
    });
    expect(res.json()).toMatchObject({ success: true });
    expect(res.json().data.totals.paid).toBe(0);
    expect(res.json().data.nothingBecause).toMatch(/^Nothing to pay: of \d+ active membership\(s\), \d+ start later/);
  });
});
