import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postEntry } from '../../../db/books.ts';
import { moneyInvariantViolations } from '../../../lib/money-invariants.ts';
import { accountWithPermissions } from '../../../test/accounts.ts';
import { bearer, createTestApp, type TestContext } from '../../../test/harness.ts';
import { balanceOf, moneyHeaders } from '../../wallet/money-test-kit.ts';
import { configureRuns, resumeRuns, runsSettled } from './engine.ts';
import { addDays, ledgerOf, member, membership, membershipOf, payoutsOf, runDay, settingsFrom, today } from './payout-test-kit.ts';

let t: TestContext;
let token: string;
let now: string;
beforeAll(async () => {
  // Four eyes above ₹50: the small runs here are reversed directly, the large one waits for a checker.
  t = await createTestApp({ config: { approvalThresholdPaise: 5000 } });
  token = await t.login();
  now = await today(t.database);
  await settingsFrom(t.database, addDays(now, -400), { tdsPercent: 5, adminChargePercent: 5, payOnWeekends: true });
});
afterAll(() => t.close());
afterEach(async () => {
  configureRuns(t.database, { chunkSize: 20_000, beforeChunk: null });
  expect(await moneyInvariantViolations(t.database)).toEqual([]);
});

const reverse = (runId: number, remarks = 'Paid with the wrong plan', headers = moneyHeaders(token)) =>
  t.app.inject({ method: 'POST', url: `/api/income/runs/${runId}/reverse`, headers, payload: { remarks } });

async function earner(day: string, dailyPaise: number, o: { active?: boolean } = {}) {
  const userId = await member(t.database, o);
  const id = await membership(t.database, userId, { dailyPaise, capPaise: 1_000_000, durationDays: 1, startsOn: day });
  return { userId, id };
}

describe('reversing a run', () => {
  it('compensates every ledger row of the run and puts balances, payouts and memberships back; the day can run again', async () => {
    const day = addDays(now, -10);
    const a = await earner(day, 1000);
    const b = await earner(day, 777);
    const before = await postEntry(t.database.db, { userId: b.userId, kind: 'wallet_recharge', amountPaise: 5000 });
    const { run } = await runDay(t, token, day);
    expect(run.totals).toMatchObject({ paid: 2, gross: 17.77 });
    const res = await reverse(run.runId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: `Run ${run.runId} reversed`, data: { runId: run.runId, status: 'reversed', shortfall: 0 } });
    expect(await balanceOf(t.database, a.userId)).toBe(0);
    expect(await balanceOf(t.database, b.userId)).toBe(before.balancePaise);
    const lines = await ledgerOf(t.database, a.userId);
    expect(lines.map((l) => [l.kind, l.amount])).toEqual([
      ['daily_payout', 1000], ['tds', -50], ['admin_charge', -50], ['daily_payout', -1000], ['tds', 50], ['admin_charge', 50],
    ]);
    expect(lines.slice(3).every((l) => l.runId === run.runId && l.reversalOf !== null)).toBe(true);
    expect(lines.map((l) => l.batchId)).toEqual([run.batchId, null, null, run.batchId, null, null]);
    expect(await payoutsOf(t.database, a.userId)).toEqual([]);
    expect(await membershipOf(t.database, a.id)).toEqual({ earned: 0, days: 0, status: 'active' });
    const [audit] = await t.database.query<{ entity_id: string }>(`select entity_id from audit_log where action = 'income_run_reversed'`);
    expect(audit.entity_id).toBe(String(run.runId));

    expect((await reverse(run.runId)).json()).toEqual({ success: false, message: `Run ${run.runId} is reversed: only a completed run can be reversed` });
    const { started, run: again } = await runDay(t, token, day);
    expect(started.statusCode).toBe(201);
    expect(again.runId).not.toBe(run.runId);
    expect(again.totals).toMatchObject({ paid: 2, gross: 17.77 });
    expect(await balanceOf(t.database, a.userId)).toBe(900);
  });

  it('takes back only what a member still has: the rest is a shortfall, never a negative balance', async () => {
    const day = addDays(now, -20);
    const spender = await earner(day, 1000);
    const keeper = await earner(day, 1000);
    const { run } = await runDay(t, token, day);
    // The spender withdrew ₹6 of their ₹9.
    await postEntry(t.database.db, { userId: spender.userId, kind: 'wallet_withdrawal', amountPaise: -600 });
    const res = await reverse(run.runId);
    expect(res.json().message).toBe(`Run ${run.runId} reversed; 1 member(s) no longer had the money: a shortfall of 6.00 is recorded`);
    expect(res.json().data.shortfall).toBe(6);
    expect(await balanceOf(t.database, spender.userId)).toBe(0);
    expect(await balanceOf(t.database, keeper.userId)).toBe(0);
    // The debits came back in full, the credit was taken back as far as ₹3 + ₹1 covered.
    expect((await ledgerOf(t.database, spender.userId)).slice(4).map((l) => [l.kind, l.amount])).toEqual([
      ['daily_payout', -400], ['tds', 50], ['admin_charge', 50],
    ]);
    const detail = await t.app.inject({ method: 'GET', url: `/api/income/runs/${run.runId}`, headers: bearer(token) });
    expect(detail.json().data).toMatchObject({ status: 'reversed', shortfall: 6, shortfalls: [{ userId: spender.userId, userName: expect.any(String), amount: 6 }] });
    expect(detail.json().data.state).toMatchObject({ reversal: { remarks: 'Paid with the wrong plan', shortfallPaise: 600 } });
  });

  it('compensates a Pay Now made on the run\u2019s Failure row too', async () => {
    const day = addDays(now, -30);
    const late = await earner(day, 1000, { active: false });
    const { run } = await runDay(t, token, day);
    await t.database.query('update users set status = true where user_id = $1', [late.userId]);
    const [failure] = await payoutsOf(t.database, late.userId);
    const paid = await t.app.inject({
      method: 'POST', url: '/api/transferAdmin', headers: moneyHeaders(token),
      payload: { userId: late.userId, amount: 9, typeIncome: 'dailyPayout', payoutId: Number(failure.id) },
    });
    expect(paid.statusCode).toBe(200);
    expect((await reverse(run.runId)).statusCode).toBe(200);
    expect(await balanceOf(t.database, late.userId)).toBe(0);
    expect((await ledgerOf(t.database, late.userId)).map((l) => l.amount)).toEqual([1000, -50, -50, -1000, 50, 50]);
  });

  it('above the approval threshold waits for a second operator, who cannot be the maker', async () => {
    const day = addDays(now, -40);
    const big = await earner(day, 10_000);
    const { run } = await runDay(t, token, day);
    const held = await reverse(run.runId);
    expect(held.statusCode).toBe(202);
    const approvalId = held.json().data.approvalId;
    expect(await balanceOf(t.database, big.userId)).toBe(9000);
    expect((await reverse(run.runId)).json()).toEqual({
      success: false, message: `The reversal of run ${run.runId} already awaits approval (request ${approvalId})`,
    });
    const own = await t.app.inject({ method: 'POST', url: `/api/approvals/${approvalId}/approve`, headers: bearer(token), payload: {} });
    expect(own.statusCode).toBe(403);
    const checker = await accountWithPermissions(t.database, ['money_approve', 'income_runs']);
    const approved = await t.app.inject({ method: 'POST', url: `/api/approvals/${approvalId}/approve`, headers: bearer(checker), payload: {} });
    expect(approved.statusCode).toBe(200);
    expect(await balanceOf(t.database, big.userId)).toBe(0);
    const [row] = await t.database.query<{ status: string }>('select status from income_runs where run_id = $1', [run.runId]);
    expect(row.status).toBe('reversed');
  });

  it('reaches members deleted since the run, in the first range and in a later one (it answered 404, or stopped half way)', async () => {
    const day = addDays(now, -55);
    const paid = [];
    for (let i = 0; i < 4; i++) paid.push(await earner(day, 1000));
    const { run } = await runDay(t, token, day);
    expect(run.totals).toMatchObject({ paid: 4 });
    const admin = bearer(token);
    for (const gone of [paid[0], paid[3]]) {
      const deleted = await t.app.inject({ method: 'DELETE', url: `/api/users/deleteByUserId/${gone.userId}`, headers: admin });
      expect(deleted.statusCode, deleted.body).toBe(200);
    }
    configureRuns(t.database, { chunkSize: 2 });
    const res = await reverse(run.runId);
    expect(res.statusCode, res.body).toBe(200);
    await runsSettled(t.database);
    const detail = await t.app.inject({ method: 'GET', url: `/api/income/runs/${run.runId}`, headers: admin });
    expect(detail.json().data).toMatchObject({ status: 'reversed', shortfall: 0, error: null });
    for (const { userId } of paid) {
      expect(await balanceOf(t.database, userId)).toBe(0);
      expect((await ledgerOf(t.database, userId)).map((l) => l.amount)).toEqual([1000, -50, -50, -1000, 50, 50]);
    }
  });

  it('a run larger than a range is reversed range by range: the request does the first, the rest follows in the background', async () => {
    const day = addDays(now, -50);
    const paid = [];
    for (let i = 0; i < 5; i++) paid.push(await earner(day, 1000));
    const failure = await earner(day, 1000, { active: false });
    const { run } = await runDay(t, token, day);
    expect(run.totals).toMatchObject({ paid: 5, failed: 1 });
    configureRuns(t.database, { chunkSize: 2 });
    const res = await reverse(run.runId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: `Run ${run.runId} is being reversed: its first 2 member(s) are done and the rest follow in the background`,
      data: { runId: run.runId, status: 'reversing' },
    });
    await runsSettled(t.database);
    const detail = await t.app.inject({ method: 'GET', url: `/api/income/runs/${run.runId}`, headers: bearer(token) });
    expect(detail.json().data).toMatchObject({ status: 'reversed', shortfall: 0, reversedBy: expect.any(Number), reversedAt: expect.any(String), error: null });
    expect(detail.json().data.state.reversal).toMatchObject({ lines: 15, members: 5, shortfallPaise: 0, shortfallMembers: 0 });
    for (const { userId, id } of paid) {
      expect(await balanceOf(t.database, userId)).toBe(0);
      expect((await ledgerOf(t.database, userId)).map((l) => l.amount)).toEqual([1000, -50, -50, -1000, 50, 50]);
      expect(await payoutsOf(t.database, userId)).toEqual([]);
      expect(await membershipOf(t.database, id)).toEqual({ earned: 0, days: 0, status: 'active' });
    }
    // The member with only a Failure row (no ledger row) is in the last range, which has no end.
    expect(await payoutsOf(t.database, failure.userId)).toEqual([]);
    expect(await membershipOf(t.database, failure.id)).toEqual({ earned: 0, days: 0, status: 'active' });
  });

  it('a reversal stopped by a crash between ranges goes on from its cursor at the next start, compensating each line once', async () => {
    const day = addDays(now, -60);
    const paid = [];
    for (let i = 0; i < 5; i++) paid.push(await earner(day, 1000));
    const { run } = await runDay(t, token, day);
    configureRuns(t.database, { chunkSize: 2, beforeChunk: (_run, n) => (n === 2 ? 'halt' : undefined) });
    expect((await reverse(run.runId)).json().data.status).toBe('reversing');
    await runsSettled(t.database);
    const [half] = await t.database.query<{ status: string; n: string }>(
      `select status, (select count(*) from ledger_entries where run_id = $1 and reversal_of is not null)::text as n from income_runs where run_id = $1`, [run.runId]);
    // The request's range and one background range: 4 members, 12 lines.
    expect(half).toEqual({ status: 'reversing', n: '12' });
    configureRuns(t.database, { beforeChunk: null });
    expect(await resumeRuns(t.database)).toEqual([run.runId]);
    await runsSettled(t.database);
    const [row] = await t.database.query<{ status: string }>('select status from income_runs where run_id = $1', [run.runId]);
    expect(row.status).toBe('reversed');
    for (const { userId } of paid) {
      expect((await ledgerOf(t.database, userId)).map((l) => l.amount)).toEqual([1000, -50, -50, -1000, 50, 50]);
      expect(await balanceOf(t.database, userId)).toBe(0);
    }
  });

  it('two reversals of one run at once: one reverses it, the other is refused, and every line is compensated once', async () => {
    const day = addDays(now, -70);
    const a = await earner(day, 1000);
    const { run } = await runDay(t, token, day);
    const answers = await Promise.all([reverse(run.runId), reverse(run.runId)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((r) => r.statusCode === 409)!.json()).toEqual({
      success: false, message: `Run ${run.runId} is reversed: only a completed run can be reversed`,
    });
    expect((await ledgerOf(t.database, a.userId)).map((l) => l.amount)).toEqual([1000, -50, -50, -1000, 50, 50]);
    expect(await balanceOf(t.database, a.userId)).toBe(0);
  });

  it('refuses an unknown run, a run not completed, and a reversal without a reason', async () => {
    expect((await reverse(999_999)).json()).toEqual({ success: false, message: 'Run 999999 not found' });
    const [failed] = await t.database.query<{ run_id: string }>(
      `insert into income_runs (kind, period_start, period_end, status) values ('daily_payout', '2001-01-01', '2001-01-01', 'failed') returning run_id::text`);
    expect((await reverse(Number(failed.run_id))).json()).toEqual({
      success: false, message: `Run ${failed.run_id} is failed: only a completed run can be reversed`,
    });
    const noReason = await reverse(Number(failed.run_id), '');
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toContain('Please give the reason for reversing this run');
  });
});
