import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { moneyInvariantViolations } from '../../../lib/money-invariants.ts';
import { bearer, type TestContext } from '../../../test/harness.ts';
import { balanceOf, moneyHeaders } from '../../wallet/money-test-kit.ts';
import {
  addDays, ledgerOf, member, membership, membershipOf, openPayoutApp, payoutsOf, runDay, settingsFrom, wire,
} from './payout-test-kit.ts';

let t: TestContext;
let token: string;
let now: string;
beforeAll(async () => {
  // The days below are whatever weekday they fall on: these tests are about the amounts, not the calendar (issue 22).
  ({ t, token, now } = await openPayoutApp(400, { payOnWeekends: true }));
});
afterAll(() => t.close());
afterEach(async () => {
  expect(await moneyInvariantViolations(t.database)).toEqual([]);
});

describe('the daily payout run', () => {
  it('pays each membership its day to the paisa: percent and fixed plans, the cap mid-day, the last day, an inactive member', async () => {
    const day = addDays(now, -20);
    // TDS 5 %, admin charge 2.5 % from that day (the next day back to the defaults).
    await settingsFrom(t.database, day, { payOnWeekends: true, tdsPercent: 5, adminChargePercent: 2.5 });
    await settingsFrom(t.database, addDays(day, 1), { payOnWeekends: true });
    const percent = await member(t.database); // a 1.5 % plan of ₹1,000: ₹15 a day
    const m1 = await membership(t.database, percent, { pricePaise: 100_000, dailyPaise: 1500, capPaise: 200_000, durationDays: 30, startsOn: addDays(day, -2) });
    const capped = await member(t.database); // fixed ₹9.99 a day, ₹5 left under the cap
    const m2 = await membership(t.database, capped, { dailyPaise: 999, capPaise: 5000, durationDays: 30, startsOn: addDays(day, -9), earnedPaise: 4500 });
    const last = await member(t.database); // its 5th and last day
    const m3 = await membership(t.database, last, { dailyPaise: 1001, capPaise: 100_000, durationDays: 5, startsOn: addDays(day, -4) });
    const inactive = await member(t.database, { active: false });
    const m4 = await membership(t.database, inactive, { dailyPaise: 2000, capPaise: 100_000, durationDays: 30, startsOn: addDays(day, -1) });
    const later = await member(t.database); // starts the day after
    const m5 = await membership(t.database, later, { dailyPaise: 700, capPaise: 100_000, durationDays: 30, startsOn: addDays(day, 1) });
    const legacy = await member(t.database);
    const m6 = await membership(t.database, legacy, { dailyPaise: 700, capPaise: 100_000, durationDays: 30, startsOn: day, status: 'legacy' });
    const gone = await member(t.database, { deleted: true });
    const m7 = await membership(t.database, gone, { dailyPaise: 700, capPaise: 100_000, durationDays: 30, startsOn: day });

    const preview = await t.app.inject({ method: 'POST', url: '/api/income/runs/preview', headers: bearer(token), payload: { kind: 'daily_payout', date: wire(day) } });
    expect(preview.statusCode).toBe(200);
    const { started, run } = await runDay(t, token, day);
    expect(started.statusCode).toBe(201);
    expect(run.status).toBe('completed');
    expect(run.totals).toEqual({
      total: 6, done: 6, paid: 3, failed: 1, gross: 30.01, deductions: 2.24, tds: 1.5, adminCharge: 0.74, net: 27.77, failedAmount: 18.5,
    });
    expect(preview.json().data).toEqual({
      kind: 'daily_payout', periodStart: wire(day), periodEnd: wire(day), existingRunId: null, nothingBecause: null,
      totals: { ...run.totals },
    });
    expect(run.settings).toMatchObject({ tdsPercent: 5, adminChargePercent: 2.5 });
    expect(run.state).toMatchObject({ tdsBp: 500, tdsWithoutPanBp: 500, adminChargeBp: 250, payTo: 'wallet' });

    // ₹15: TDS 75 paise, admin charge floor(37.5) = 37 paise, the member gets 13.88.
    expect(await ledgerOf(t.database, percent)).toEqual([
      { kind: 'daily_payout', amount: 1500, runId: run.runId, batchId: run.batchId, reversalOf: null },
      { kind: 'tds', amount: -75, runId: run.runId, batchId: null, reversalOf: null },
      { kind: 'admin_charge', amount: -37, runId: run.runId, batchId: null, reversalOf: null },
    ]);
    expect(await balanceOf(t.database, percent)).toBe(1388);
    const [p1] = await payoutsOf(t.database, percent);
    expect(p1).toMatchObject({ day, amount: '1388', gross: '1500', tds: '75', admin: '37', status: 'Success', reason: null, run_id: String(run.runId) });
    const [gross] = await t.database.query<{ id: string }>(`select id::text from ledger_entries where user_id = $1 and kind = 'daily_payout'`, [percent]);
    expect(p1.ledger_entry_id).toBe(gross.id);
    expect(await membershipOf(t.database, m1)).toEqual({ earned: 1500, days: 1, status: 'active' });

    // Only ₹5 was left under the cap: gross 500, TDS 25, admin 12; the cap is reached.
    expect((await ledgerOf(t.database, capped)).map((l) => l.amount)).toEqual([500, -25, -12]);
    expect(await membershipOf(t.database, m2)).toEqual({ earned: 5000, days: 1, status: 'completed' });
    // The last day of its duration: paid, then completed.
    expect((await ledgerOf(t.database, last)).map((l) => l.amount)).toEqual([1001, -50, -25]);
    expect(await membershipOf(t.database, m3)).toEqual({ earned: 1001, days: 1, status: 'completed' });
    // Inactive: a Failure row with its reason and net amount, no ledger row; the day is earned.
    expect(await ledgerOf(t.database, inactive)).toEqual([]);
    expect(await payoutsOf(t.database, inactive)).toMatchObject([
      { amount: '1850', gross: '2000', tds: '100', admin: '50', status: 'Failure', reason: 'Member is inactive', ledger_entry_id: null },
    ]);
    expect(await membershipOf(t.database, m4)).toEqual({ earned: 2000, days: 1, status: 'active' });
    // Not started yet, legacy, deleted: nothing.
    for (const [userId, id, status] of [[later, m5, 'active'], [legacy, m6, 'legacy'], [gone, m7, 'active']] as const) {
      expect(await ledgerOf(t.database, userId)).toEqual([]);
      expect(await payoutsOf(t.database, userId)).toEqual([]);
      expect(await membershipOf(t.database, id)).toEqual({ earned: 0, days: 0, status });
    }
    // The list shows the reason; the Reward Income batch is the run's.
    const list = await t.app.inject({ method: 'GET', url: `/api/wallets/dailyPayout?status=Failure&fromDate=${wire(day)}&toDate=${wire(day)}`, headers: bearer(token) });
    expect(list.json().data).toEqual([expect.objectContaining({ userId: inactive, amount: 18.5, reason: 'Member is inactive' })]);
    const [batch] = await t.database.query<{ kind: string; reward_type: string; run_date: string; run_id: string }>(
      'select kind, reward_type, run_date::text, run_id::text from income_batches where batch_id = $1', [run.batchId]);
    expect(batch).toEqual({ kind: 'reward', reward_type: 'dailyPayout', run_date: day, run_id: String(run.runId) });

    // Pay Now of the Failure row, once the member is active again: the same three lines, net 18.50.
    await t.database.query('update users set status = true where user_id = $1', [inactive]);
    const [failure] = await payoutsOf(t.database, inactive);
    const paid = await t.app.inject({
      method: 'POST', url: '/api/transferAdmin', headers: moneyHeaders(token),
      payload: { userId: inactive, amount: 18.5, typeIncome: 'dailyPayout', payoutId: Number(failure.id) },
    });
    expect(paid.statusCode).toBe(200);
    expect(paid.json().data).toMatchObject({ balance: 18.5, status: 'Success' });
    expect(await ledgerOf(t.database, inactive)).toEqual([
      { kind: 'daily_payout', amount: 2000, runId: run.runId, batchId: run.batchId, reversalOf: null },
      { kind: 'tds', amount: -100, runId: run.runId, batchId: null, reversalOf: null },
      { kind: 'admin_charge', amount: -50, runId: run.runId, batchId: null, reversalOf: null },
    ]);
    const [after] = await payoutsOf(t.database, inactive);
    expect(after).toMatchObject({ status: 'Success', ledger_entry_id: String(paid.json().data.transactionId) });
  });

  it('pays to bank: a member without a primary bank account gets a Failure with its reason', async () => {
    const day = addDays(now, -30);
    await settingsFrom(t.database, day, { payOnWeekends: true, payTo: 'bank', tdsPercent: 0, adminChargePercent: 0 });
    await settingsFrom(t.database, addDays(day, 1), { payOnWeekends: true });
    const banked = await member(t.database);
    await t.database.query(
      `insert into bank_accounts (user_id, account_holder_name, account_number, ifsc, bank, is_primary) values ($1, 'A', '123456789', 'SBIN0000001', 'SBI', true)`,
      [banked]);
    const secondary = await member(t.database); // a bank account, but not the primary one
    await t.database.query(
      `insert into bank_accounts (user_id, account_holder_name, account_number, ifsc, bank, is_primary) values ($1, 'B', '987654321', 'SBIN0000001', 'SBI', false)`,
      [secondary]);
    const none = await member(t.database);
    for (const userId of [banked, secondary, none]) {
      await membership(t.database, userId, { dailyPaise: 1234, capPaise: 100_000, durationDays: 3, startsOn: day });
    }
    const { run } = await runDay(t, token, day);
    expect(run.totals).toMatchObject({ paid: 1, failed: 2, gross: 12.34, deductions: 0, net: 12.34, failedAmount: 24.68 });
    // Paid, then sent on to the bank (issue 25): the wallet is where it was.
    expect(await ledgerOf(t.database, banked)).toEqual([
      { kind: 'daily_payout', amount: 1234, runId: run.runId, batchId: run.batchId, reversalOf: null },
      { kind: 'bank_payout', amount: -1234, runId: run.runId, batchId: null, reversalOf: null },
    ]);
    expect(await balanceOf(t.database, banked)).toBe(0);
    for (const userId of [secondary, none]) {
      expect(await payoutsOf(t.database, userId)).toMatchObject([{ status: 'Failure', reason: 'No primary bank account', amount: '1234' }]);
      expect(await balanceOf(t.database, userId)).toBe(0);
    }
  });

  it('never pays a membership twice for a day, even when the member already has a payout row that day', async () => {
    const day = addDays(now, -40);
    const userId = await member(t.database);
    const id = await membership(t.database, userId, { dailyPaise: 1000, capPaise: 100_000, durationDays: 2, startsOn: day });
    await t.database.query(`insert into daily_payouts (user_id, payout_date, amount_paise, status) values ($1, $2::date, 500, 'Failure')`, [userId, day]);
    const { run } = await runDay(t, token, day);
    expect(run.totals).toMatchObject({ paid: 0, failed: 0, gross: 0 });
    expect(await membershipOf(t.database, id)).toEqual({ earned: 0, days: 0, status: 'active' });
    expect(await ledgerOf(t.database, userId)).toEqual([]);
  });
});
