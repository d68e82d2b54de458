import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_INCOME_SETTINGS } from '../../../../contract/income.ts';
import { postEntry } from '../../../db/books.ts';
import { moneyInvariantViolations } from '../../../lib/money-invariants.ts';
import { accountWithPermissions } from '../../../test/accounts.ts';
import { bearer, createTestApp, type TestContext } from '../../../test/harness.ts';
import { balanceOf, moneyHeaders } from '../../wallet/money-test-kit.ts';
import { runToEnd } from './engine.ts';
import { addDays, ledgerOf, member, membership, payoutsOf, settingsFrom, today } from './payout-test-kit.ts';
import { addDirects } from './run-test-kit.ts';

/**
 * Issue 22, finding 2, "a day is paid once, net": an operator with wallet_manage + income_runs
 * debited a member's wallet to ₹0, reversed the day's run (the shortfall was recorded and never
 * collected) and ran the day again, three times: one member was paid four times for one day. Now a
 * reversal's shortfall is a recovery the member owes, settled first from their next credits, each
 * settlement its own ledger line (kind 'recovery'), shown on the run and the member.
 * Re-runs are started through the engine as an approved re-run (runToEnd with rerunApproved): the
 * four eyes on a re-run are approvals/levers.test.ts's.
 */

let t: TestContext;
let admin: string;
let operator: string;
let now: string;
beforeAll(async () => {
  // Nothing here waits for a checker: the reversals and credits are small, the threshold high.
  t = await createTestApp({ config: { approvalThresholdPaise: 1_000_000_000 } });
  admin = await t.login();
  operator = await accountWithPermissions(t.database, ['wallet_manage', 'income_runs', 'payouts_view']);
  now = await today(t.database);
  await settingsFrom(t.database, addDays(now, -400), { tdsPercent: 5, adminChargePercent: 5, payOnWeekends: true });
});
afterAll(() => t.close());
afterEach(async () => {
  expect(await moneyInvariantViolations(t.database)).toEqual([]);
});

const reverse = (runId: number, token = operator) =>
  t.app.inject({ method: 'POST', url: `/api/income/runs/${runId}/reverse`, headers: moneyHeaders(token), payload: { remarks: 'Paid by mistake' } });
const wallet = (userId: number, amount: number, transactionType: 'wallet_recharge' | 'wallet_withdrawal', token = operator) =>
  t.app.inject({ method: 'POST', url: '/api/wallets/userWalletRecharge', headers: moneyHeaders(token), payload: { userId, amount, transactionType } });
const recoveryOf = async (userId: number) =>
  (await t.app.inject({ method: 'GET', url: `/api/income/recoveries/${userId}`, headers: bearer(operator) })).json();
const runDetail = async (runId: number) =>
  (await t.app.inject({ method: 'GET', url: `/api/income/runs/${runId}`, headers: bearer(operator) })).json().data;
const runDay = (day: string, kind: 'daily_payout' | 'referral_bonus' = 'daily_payout') => runToEnd(t.database, { kind, day, startedBy: null, rerunApproved: true });

/** A member whose membership earns ₹10 gross (₹9 net after 5 % TDS and 5 % admin charge) on `day` only. */
async function earner(day: string) {
  const userId = await member(t.database);
  await membership(t.database, userId, { dailyPaise: 1000, capPaise: 1_000_000, durationDays: 1, startsOn: day });
  return userId;
}

/** The member's one membership (memberships.user_id is unique) earns again, on `day`. */
async function earnOn(userId: number, day: string, dailyPaise = 1000) {
  await t.database.query(
    `update memberships set starts_on = $2::date, daily_paise = $3, status = 'active' where user_id = $1`, [userId, day, dailyPaise]);
}

/** Pays `day`, empties the wallet (a debit) and reverses the run: the member then owes ₹9. */
async function owing(day: string) {
  const userId = await earner(day);
  const run = await runDay(day);
  expect((await wallet(userId, 9, 'wallet_withdrawal')).statusCode).toBe(200);
  expect((await reverse(run.runId)).json().data).toMatchObject({ status: 'reversed', shortfall: 9 });
  return { userId, runId: run.runId };
}

describe('a day is paid once, net (issue 22, finding 2)', () => {
  it('the attack: debit to ₹0, reverse, run the day again, three times: the member takes one day\u2019s pay out, not four', async () => {
    const day = addDays(now, -10);
    const victim = await earner(day);
    let taken = 0;
    let run = await runDay(day);
    for (let cycle = 0; cycle < 3; cycle++) {
      // Debit whatever the wallet holds, in small debits under the threshold.
      const balance = await balanceOf(t.database, victim);
      if (balance > 0) {
        const debit = await wallet(victim, balance / 100, 'wallet_withdrawal');
        expect(debit.statusCode, debit.body).toBe(200);
        taken += balance;
      } else {
        const refused = await wallet(victim, 9, 'wallet_withdrawal');
        expect(refused.statusCode).toBe(400);
        expect(refused.json().message).toBe('Insufficient wallet balance: the member has 0.00 and 9.00 was requested');
      }
      const reversed = await reverse(run.runId);
      expect(reversed.statusCode, reversed.body).toBe(200);
      expect(reversed.json().data).toMatchObject({ status: 'reversed', shortfall: 9 });
      // The shortfall is now owed by the member …
      expect((await recoveryOf(victim)).data).toMatchObject({ userId: victim, owed: 9, shortfalls: [{ runId: run.runId, amount: 9, recovered: 0 }] });
      run = await runDay(day);
      expect(run.status).toBe('completed');
      // … and the day's pay, run again, settles it first: nothing is left to take out.
      expect(await balanceOf(t.database, victim)).toBe(0);
      expect((await recoveryOf(victim)).data).toMatchObject({ owed: 0, shortfalls: [] });
    }
    expect(taken).toBe(900);
    // Every settlement is its own ledger line, after the credit that paid it.
    const lines = await ledgerOf(t.database, victim);
    expect(lines.filter((l) => l.kind === 'recovery').map((l) => [l.amount, l.runId])).toEqual([[-900, null], [-900, null], [-900, null]]);
    expect(lines.slice(-4).map((l) => [l.kind, l.amount])).toEqual([['daily_payout', 1000], ['tds', -50], ['admin_charge', -50], ['recovery', -900]]);
    // Net for the day across four runs, three reversals and three recoveries: one day's pay, all of it taken out.
    const [net] = await t.database.query<{ paise: string }>(
      `select sum(amount_paise)::text as paise from ledger_entries where user_id = $1 and kind <> 'wallet_withdrawal'`, [victim]);
    expect(Number(net.paise)).toBe(900);
    expect(await balanceOf(t.database, victim)).toBe(0);
  });

  it('shows each shortfall of a run and what has been recovered of it; a credit smaller than the debt recovers part, oldest first', async () => {
    // Two days paid, ₹18 spent, both runs reversed: two shortfalls of ₹9, the older reversal's first.
    const day1 = addDays(now, -20);
    const userId = await member(t.database);
    await membership(t.database, userId, { dailyPaise: 1000, capPaise: 1_000_000, durationDays: 2, startsOn: day1 });
    const run1 = await runDay(day1);
    const run2 = await runDay(addDays(day1, 1));
    expect((await wallet(userId, 18, 'wallet_withdrawal')).statusCode).toBe(200);
    expect((await reverse(run1.runId)).json().data).toMatchObject({ shortfall: 9 });
    expect((await reverse(run2.runId)).json().data).toMatchObject({ shortfall: 9 });
    const first = { userId, runId: run1.runId };
    expect((await recoveryOf(first.userId)).data.owed).toBe(18);
    // A recharge of ₹12: ₹9 settle the older shortfall, ₹3 the newer one; the answer's balance is after both.
    const recharge = await wallet(first.userId, 12, 'wallet_recharge', admin);
    expect(recharge.statusCode).toBe(200);
    expect(recharge.json().data).toMatchObject({ amount: 12, balance: 0 });
    expect((await ledgerOf(t.database, first.userId)).slice(-3).map((l) => [l.kind, l.amount])).toEqual([
      ['wallet_recharge', 1200], ['recovery', -900], ['recovery', -300],
    ]);
    expect((await recoveryOf(first.userId)).data).toMatchObject({ owed: 6, shortfalls: [{ runId: run2.runId, amount: 9, recovered: 3 }] });
    expect((await runDetail(first.runId)).shortfalls).toEqual([{ userId: first.userId, userName: expect.any(String), amount: 9, recovered: 9 }]);
    expect((await runDetail(run2.runId)).shortfalls).toEqual([{ userId: first.userId, userName: expect.any(String), amount: 9, recovered: 3 }]);
    // A larger one settles the rest and the member keeps what is left.
    const more = await wallet(first.userId, 10, 'wallet_recharge', admin);
    expect(more.json().data).toMatchObject({ balance: 4 });
    expect(await balanceOf(t.database, first.userId)).toBe(400);
    expect((await recoveryOf(first.userId)).data).toEqual({ userId: first.userId, owed: 0, shortfalls: [] });
    // A debit never settles anything, and a member who owes nothing is untouched.
    expect((await wallet(first.userId, 4, 'wallet_withdrawal')).json().data).toMatchObject({ balance: 0 });
  });

  it('reversing the run that settled a recovery owes it again: nothing is paid twice and nothing is lost', async () => {
    const day = addDays(now, -30);
    const { userId, runId } = await owing(day);
    const again = await runDay(day);
    expect(await balanceOf(t.database, userId)).toBe(0);
    expect((await recoveryOf(userId)).data.owed).toBe(0);
    // The re-run's ₹9 went to the recovery; reversing it gives back the ₹1 of deductions, takes ₹1
    // of the credit (all the balance then covers) and the ₹9 is owed again, now for the re-run.
    const res = await reverse(again.runId);
    expect(res.json().data).toMatchObject({ status: 'reversed', shortfall: 9 });
    expect(await balanceOf(t.database, userId)).toBe(0);
    expect((await recoveryOf(userId)).data).toMatchObject({ owed: 9, shortfalls: [{ runId: again.runId, amount: 9, recovered: 0 }] });
    expect((await runDetail(runId)).shortfalls[0]).toMatchObject({ amount: 9, recovered: 9 });
  });

  it('a Pay Now settles from the net after its deductions, and answers the balance after the recovery', async () => {
    const { userId } = await owing(addDays(now, -40));
    // A Failure row on another day (the member was inactive then), paid later with Pay Now.
    const day = addDays(now, -39);
    await earnOn(userId, day, 2000);
    await t.database.query('update users set status = false where user_id = $1', [userId]);
    await runDay(day);
    await t.database.query('update users set status = true where user_id = $1', [userId]);
    const failure = (await payoutsOf(t.database, userId)).find((p) => p.status === 'Failure')!;
    expect(Number(failure.amount)).toBe(1800);
    const paid = await t.app.inject({
      method: 'POST', url: '/api/transferAdmin', headers: moneyHeaders(admin),
      payload: { userId, amount: 18, typeIncome: 'dailyPayout', payoutId: Number(failure.id) },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().data).toMatchObject({ balance: 9 });
    expect((await ledgerOf(t.database, userId)).slice(-4).map((l) => [l.kind, l.amount])).toEqual([
      ['daily_payout', 2000], ['tds', -100], ['admin_charge', -100], ['recovery', -900],
    ]);
    expect((await recoveryOf(userId)).data.owed).toBe(0);
  });

  it('level income of an activation and a reward run settle it too; an outside payment for the member\u2019s own membership does not', async () => {
    const { userId: upline } = await owing(addDays(now, -50));
    // Level income: a direct referral of the member buys a ₹100 plan paid outside (level 1: 10 % = ₹10).
    const [{ plan_id: planId }] = await t.database.query<{ plan_id: number }>(`insert into membership_plans (name) values ('Recovery plan') returning plan_id`);
    await t.database.query(
      `insert into membership_plan_versions (plan_id, effective_from, price_paise, daily_mode, daily_value, duration_days, cap_paise)
       values ($1, (now() at time zone 'Asia/Kolkata')::date, 10000, 'fixed', 100, 10, 20000)`, [planId]);
    await t.database.query(
      `insert into income_settings_versions (effective_from, settings) values ((now() at time zone 'Asia/Kolkata')::date, $1::jsonb)
       on conflict (effective_from) do update set settings = excluded.settings`,
      [JSON.stringify({ ...DEFAULT_INCOME_SETTINGS, tdsPercent: 5, adminChargePercent: 5, payOnWeekends: true, referralBonus: 5 })]);
    // The upline's membership is active again after the reversal: an active upline.
    const [buyer] = await addDirects(t.database, upline, 1, { membership: null });
    const sold = await t.app.inject({
      method: 'POST', url: '/api/income/memberships', headers: moneyHeaders(admin),
      payload: { userId: buyer, planId: Number(planId), paidVia: 'outside', method: 'Cash', reference: 'R-1' },
    });
    expect(sold.statusCode, sold.body).toBe(201);
    expect(sold.json().data.levelIncome).toEqual([{ level: 1, userId: upline, amount: 10 }]);
    expect((await ledgerOf(t.database, upline)).slice(-2).map((l) => [l.kind, l.amount])).toEqual([['level_income', 1000], ['recovery', -900]]);
    expect(await balanceOf(t.database, upline)).toBe(100);
    expect((await recoveryOf(upline)).data.owed).toBe(0);

    // The member owes again, then buys their own membership paid outside: external_payment is spent on the fee at once.
    const { userId: payer } = await owing(addDays(now, -49));
    await t.database.query('delete from memberships where user_id = $1', [payer]);
    const own = await t.app.inject({
      method: 'POST', url: '/api/income/memberships', headers: moneyHeaders(admin),
      payload: { userId: payer, planId: Number(planId), paidVia: 'outside', method: 'Cash', reference: 'R-2' },
    });
    expect(own.statusCode, own.body).toBe(201);
    expect(own.json().data.balance).toBe(0);
    expect((await recoveryOf(payer)).data.owed).toBe(9);

    // A reward: the one-time referral bonus (₹5) at 10 active direct referrals settles ₹5 of the ₹9.
    await addDirects(t.database, payer, 10);
    const bonus = await runDay(now, 'referral_bonus');
    expect(bonus.status).toBe('completed');
    expect((await ledgerOf(t.database, payer)).slice(-2).map((l) => [l.kind, l.amount])).toEqual([['reward', 500], ['recovery', -500]]);
    expect((await recoveryOf(payer)).data.owed).toBe(4);
    expect(await balanceOf(t.database, payer)).toBe(0);
  });

  it('refuses an unknown member, and needs payouts_view', async () => {
    expect((await recoveryOf(987_654_321))).toEqual({ success: false, message: 'Member 987654321 not found' });
    const stranger = await accountWithPermissions(t.database, ['wallet_manage']);
    const res = await t.app.inject({ method: 'GET', url: '/api/income/recoveries/1', headers: bearer(stranger) });
    expect(res.statusCode).toBe(403);
  });

  it('a credit written straight to the ledger by any writer settles (postEntry), never below a zero balance', async () => {
    const { userId } = await owing(addDays(now, -60));
    await postEntry(t.database.db, { userId, kind: 'admin_transfer', amountPaise: 300 });
    expect(await balanceOf(t.database, userId)).toBe(0);
    expect((await recoveryOf(userId)).data.owed).toBe(6);
    // A debit cannot go through what the recovery took.
    await expect(postEntry(t.database.db, { userId, kind: 'wallet_withdrawal', amountPaise: -1 })).rejects.toThrow(/Insufficient wallet balance/);
  });
});
