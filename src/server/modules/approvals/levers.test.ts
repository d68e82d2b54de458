import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isoToWireDate } from '../../../contract/common.ts';
import { DEFAULT_INCOME_SETTINGS } from '../../../contract/income.ts';
import { activationSuite } from '../income/income-test-kit.ts';
import { runsSettled } from '../income/runs/engine.ts';
import { membership, settingsFrom } from '../income/runs/payout-test-kit.ts';
import { addDays, istToday, settingsOn } from '../income/settings.ts';
import { balanceOf, moneyHeaders } from '../wallet/money-test-kit.ts';
import type { Operator } from './four-eyes-test-kit.ts';

/**
 * Issue 22: every lever that makes money at scale under four eyes. Each test is the attacker's
 * steps of one finding, over HTTP, on the default ₹10,000 threshold (daily credit and debit limits
 * of ₹50,000 in this file).
 */
const suite = activationSuite({ dailyDebitLimitPaise: 5_000_000 });
const { ctx, operator, fund, post, put, get, recharge, approve, moneyRequest, member, plan, activate, ledgerRows } = suite;
const db = () => ctx.t.database;
const wire = isoToWireDate;

const platinum = { name: 'Platinum Promo', price: 10000, dailyMode: 'fixed', dailyValue: 1000000, durationDays: 3650, cap: 100000000 };

async function approvalOf(who: Operator, id: number) {
  const res = await get(who, `/approvals/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { status: string; kind: string; userId: number | null; amount: number; details: Record<string, unknown> | null };
}

describe('finding 1: a plan or a settings version mints money only with a second operator', () => {
  it('the promo plan is refused by the deployment bounds; a plan within them waits for a checker and sells nothing until approved', async () => {
    const maker = await operator('income_settings', 'membership_manage', 'money_approve');
    const checker = await operator('money_approve');
    const promo = await post(maker, '/income/plans', platinum);
    expect(promo.statusCode).toBe(400);
    expect(promo.json().message).toBe('Daily payout must be at most 2 % of the price (₹200.00 a day): the limit set for this installation');
    const greedyCap = await post(maker, '/income/plans', { ...platinum, dailyValue: 200, cap: 30000.01 });
    expect(greedyCap.json().message).toBe('Total payout cap must be at most 3 times the price (₹30,000.00): the limit set for this installation');

    const filed = await post(maker, '/income/plans', { ...platinum, dailyValue: 200, cap: 30000 });
    expect(filed.statusCode, filed.body).toBe(202);
    expect(filed.json().message).toMatch(/^New plan Platinum Promo awaits approval by a second operator with money_approve \(projected cost over its first 30 days: ₹[\d,.]+\)$/);
    const approvalId = filed.json().data.approvalId as number;
    // Nothing is in force: the plan does not exist, so it cannot be sold.
    const [stored] = await db().query<{ n: number }>(`select count(*)::int as n from membership_plans where name = 'Platinum Promo'`);
    expect(stored.n).toBe(0);

    const shown = await approvalOf(checker, approvalId);
    expect(shown).toMatchObject({ kind: 'plan_create', userId: null, status: 'pending' });
    expect(shown.details).toMatchObject({
      before: null,
      after: { name: 'Platinum Promo', price: '₹10,000.00', daily: '₹200.00 a day', cap: '₹30,000.00', durationDays: 3650 },
      projectedCost: expect.stringMatching(/^₹/),
    });
    // 30 days at ₹200 on the business days, and level income on one sale (24 % of ₹10,000 at the defaults).
    const days = (shown.details!.projection as { label: string }[])[0].label.match(/\((\d+) business days/)![1];
    expect(shown.amount).toBe(Number(days) * 200 + 2400);

    expect((await approve(maker, approvalId)).statusCode).toBe(403);
    const approved = await approve(checker, approvalId);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().data.result).toMatchObject({ current: { name: 'Platinum Promo', cap: 30000, dailyAmount: 200 } });
    const [audit] = await db().query<{ after: { makerId: number; approvedBy: number } }>(
      `select after from audit_log where entity = 'membership_plan' and action = 'create' and entity_id = $1`, [String(approved.json().data.result.planId)]);
    expect(audit.after).toMatchObject({ makerId: maker.userId, approvedBy: checker.userId });
  });

  it('settings paying level 1 at 100 % or no TDS are refused; a valid version waits, and is in force only after approval', async () => {
    const maker = await operator('income_settings');
    const checker = await operator('money_approve');
    const today = await istToday(db().db);
    const from = addDays(today, 3);
    const save = (settings: object) => put(maker, '/income/settings', { settings: { ...DEFAULT_INCOME_SETTINGS, ...settings }, effectiveFrom: wire(from) });
    const greedy = await save({ levelIncome: [100, 0, 0, 0, 0, 0, 0, 0, 0, 0] });
    expect(greedy.statusCode).toBe(400);
    expect(greedy.json().message).toBe('Level income must add up to at most 30 % (the limit set for this installation); these add up to 100 %');
    expect((await save({ tdsPercent: 0 })).json().message).toBe('TDS must be at least 2 % (the limit set for this installation)');

    const filed = await save({ levelIncome: [12, 5, 3, 2, 1, 1, 0.5, 0.5, 0.5, 0.5], tdsPercent: 3 });
    expect(filed.statusCode, filed.body).toBe(202);
    expect((await settingsOn(db().db, from)).settings.tdsPercent).not.toBe(3);
    const shown = await approvalOf(checker, filed.json().data.approvalId);
    expect(shown).toMatchObject({ kind: 'settings_change', userId: null });
    expect(shown.details).toMatchObject({
      after: { effectiveFrom: wire(from), tds: '3 %', levelIncome: '12 %, 5 %, 3 %, 2 %, 1 %, 1 %, 0.5 %, 0.5 %, 0.5 %, 0.5 %' },
      projectedCost: expect.stringMatching(/^₹/), projectedCostBefore: expect.stringMatching(/^₹/),
    });
    expect((await approve(checker, filed.json().data.approvalId)).statusCode).toBe(200);
    expect((await settingsOn(db().db, from)).settings.tdsPercent).toBe(3);
  });

  it('a scheduled version not approved before its day never starts: its approval answers 409 and the request is expired', async () => {
    const maker = await operator('income_settings');
    const checker = await operator('money_approve');
    const p = await plan(500_000);
    const filed = await put(maker, `/income/plans/${p.planId}`, { name: p.name, price: 5000, dailyMode: 'percent', dailyValue: 1, durationDays: 100, cap: 10000 });
    expect(filed.statusCode, filed.body).toBe(202);
    const id = filed.json().data.approvalId as number;
    expect((await approvalOf(checker, id)).details).toMatchObject({ before: { price: '₹5,000.00' }, after: { daily: '1 % of the price' } });
    // Its day comes (the request was for tomorrow; here the stored day is moved to today).
    await db().query(`update money_requests set payload = jsonb_set(payload, '{effectiveFrom}', to_jsonb((now() at time zone 'Asia/Kolkata')::date::text)) where id = $1`, [id]);
    const late = await approve(checker, id);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toMatch(new RegExp(`^Approval request ${id} has expired: it was to take effect on \\d\\d-\\d\\d-\\d{4} and was not approved before that day\\. Nothing moved$`));
    expect(await moneyRequest(id)).toMatchObject({ status: 'expired', checker_id: String(checker.userId) });
    const [versions] = await db().query<{ n: number }>('select count(*)::int as n from membership_plan_versions where plan_id = $1', [p.planId]);
    expect(versions.n).toBe(1);
  });

  it('an activation paid outside is judged by its plan\u2019s cap, and the checker sees the payment\u2019s method and reference', async () => {
    const maker = await operator('membership_manage');
    const checker = await operator('money_approve');
    const p = await plan(400_000, { cap: 1_200_000 }); // ₹4,000 price, up to ₹12,000 paid
    const buyer = await member();
    const filed = await activate(maker, { userId: buyer, planId: p.planId, paidVia: 'outside', method: 'Cash', reference: 'nothing-paid' });
    expect(filed.statusCode, filed.body).toBe(202);
    expect(await ledgerRows(buyer)).toEqual([]);
    const shown = await approvalOf(checker, filed.json().data.approvalId);
    expect(shown).toMatchObject({ kind: 'membership_activation', userId: buyer, amount: 4000 });
    expect(shown.details).toMatchObject({ method: 'Cash', reference: 'nothing-paid', price: '₹4,000.00', cap: '₹12,000.00' });
  });
});

describe('finding 2: reverse, re-run, repeat', () => {
  it('a reversed day is run again only with a second operator\u2019s approval', async () => {
    const op = await operator('wallet_manage', 'income_runs', 'money_approve');
    const checker = await operator('money_approve');
    const today = await istToday(db().db);
    const day = addDays(today, -45);
    await settingsFrom(db(), day, { payOnWeekends: true });
    const holder = await member();
    await membership(db(), holder, { dailyPaise: 50_000, capPaise: 10_000_000, durationDays: 300, startsOn: addDays(day, -1) });
    const start = () => post(op, '/income/runs', { kind: 'daily_payout', date: wire(day) });

    const first = await start();
    expect(first.statusCode, first.body).toBe(201);
    await runsSettled(db());
    const paid = await balanceOf(db(), holder);
    expect(paid).toBe(45_000); // ₹500 less 5 % TDS and 5 % admin charge
    // Spend it, in a small debit no checker sees, then reverse the day: its net is under the threshold.
    expect((await recharge(op, holder, paid / 100, 'wallet_withdrawal')).statusCode).toBe(200);
    const runId = first.json().data.runId as number;
    const reversed = await post(op, `/income/runs/${runId}/reverse`, { remarks: 'attacker' });
    expect(reversed.statusCode, reversed.body).toBe(200);
    await runsSettled(db());

    // The same day again: filed, not paid.
    const again = await start();
    expect(again.statusCode, again.body).toBe(202);
    expect(again.json().message).toMatch(/running it again needs a second operator's approval/);
    await runsSettled(db());
    expect((await ledgerRows(holder)).filter((r) => r.kind === 'daily_payout')).toHaveLength(2); // the payout and its compensation
    expect((await start()).statusCode).toBe(409); // one pending request per period
    const id = again.json().data.approvalId as number;
    expect(await approvalOf(checker, id)).toMatchObject({ kind: 'run_rerun', userId: null, amount: 450, details: { reversedRun: runId, net: '₹450.00' } });
    expect((await approve(op, id)).statusCode).toBe(403);
    const approved = await approve(checker, id);
    expect(approved.statusCode, approved.body).toBe(200);
    await runsSettled(db());
    const [rerun] = await db().query<{ status: string; started_by: string }>(
      `select status, started_by::text from income_runs where kind = 'daily_payout' and period_start = $1::date and status <> 'reversed'`, [day]);
    expect(rerun).toEqual({ status: 'completed', started_by: String(op.userId) });
  });
});

describe('finding 3: splitting does not defeat the threshold', () => {
  it('110 credits of ₹1,000 at once to one member: ₹10,000 moves, the rest waits; debits count in the same sum', async () => {
    const op = await operator('wallet_manage');
    const target = await member();
    const answers = await Promise.all(Array.from({ length: 110 }, () => recharge(op, target, 1_000, 'wallet_recharge', randomUUID())));
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(10);
    expect(codes.filter((c) => c === 202)).toHaveLength(100);
    expect(await balanceOf(db(), target)).toBe(1_000_000);
    const waiting = answers.find((a) => a.statusCode === 202)!;
    expect(waiting.json().message).toBe(`You already moved ₹10,000.00 for member ${target} today: with this ₹1,000.00 it passes the approval threshold of ₹10,000.00, so this request awaits approval by a second operator`);
    // Debits: the same operator's sum for this member is spent.
    const debits = await Promise.all(Array.from({ length: 20 }, () => recharge(op, target, 100, 'wallet_withdrawal', randomUUID())));
    expect(debits.every((d) => d.statusCode === 202)).toBe(true);
    expect(await balanceOf(db(), target)).toBe(1_000_000);
    // Another operator has a sum of their own.
    expect((await recharge(await operator('wallet_manage'), target, 100, 'wallet_withdrawal')).statusCode).toBe(200);
  });

  it('debits have a daily limit per operator beside the credit limit, and the panel can read what is left', async () => {
    const op = await operator('wallet_manage');
    const members: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      members.push(await member());
      await fund(members[i], 20_000);
    }
    for (let i = 0; i < 5; i += 1) expect((await recharge(op, members[i], 10_000, 'wallet_withdrawal')).statusCode).toBe(200);
    const over = await recharge(op, members[5], 0.01, 'wallet_withdrawal');
    expect(over.statusCode).toBe(403);
    expect(over.json().message).toBe('This debit of ₹0.01 would pass your daily debit limit of ₹50,000.00: ₹0.00 is left today');
    const day = await get(op, `/wallet/my-day?userId=${members[0]}`);
    expect(day.statusCode, day.body).toBe(200);
    expect(day.json().data).toEqual({
      approvalThreshold: 10_000, dailyCreditLimit: 50_000, creditedToday: 0, creditLeft: 50_000,
      dailyDebitLimit: 50_000, debitedToday: 50_000, debitLeft: 0, userId: members[0], movedForMember: 10_000, leftBeforeApproval: 0,
    });
  });
});

describe('finding 11: a request whose maker or member was deactivated cannot be approved', () => {
  it('is answered 409, shown as expired, and moves nothing', async () => {
    const checker = await operator('money_approve');
    for (const who of ['maker', 'member'] as const) {
      const maker = await operator('wallet_manage');
      const target = await member();
      const filed = await recharge(maker, target, 20_000);
      expect(filed.statusCode).toBe(202);
      const id = filed.json().data.approvalId as number;
      await db().query('update users set status = false where user_id = $1', [who === 'maker' ? maker.userId : target]);
      const res = await approve(checker, id);
      expect(res.statusCode).toBe(409);
      const why = who === 'maker' ? 'the operator who asked for it has been deactivated' : `member ${target} has been deactivated`;
      expect(res.json().message).toBe(`Approval request ${id} has expired: ${why}. Nothing moved`);
      expect((await approvalOf(checker, id)).status).toBe('expired');
      expect(await ledgerRows(target)).toEqual([]);
      // A retry with the same answer, not a second decision.
      expect((await ctx.t.app.inject({ method: 'POST', url: `/api/approvals/${id}/approve`, headers: moneyHeaders(checker.token) })).statusCode).toBe(409);
    }
  });
});
