import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { moneyInvariantViolations } from '../../lib/money-invariants.ts';
import { accountWithPermissions } from '../../test/accounts.ts';
import { bearer, createTestApp, type TestContext } from '../../test/harness.ts';
import { balanceOf, moneyHeaders, newMember } from '../wallet/money-test-kit.ts';

/**
 * Bulk Pay Now (issue 24): failed payouts paid in chunks of ≤ 500, each under the rules of a single
 * Pay Now; what the summed per operator/member/day threshold holds goes into ONE approval request
 * per bulk; already-paid payouts are reported as such and never paid twice, whether the bulk is
 * sent twice at once or a chunk is retried with its Idempotency-Key.
 */
let t: TestContext;
let token: string;
let checker: Record<string, string>;
beforeAll(async () => {
  // Four eyes above ₹50 (summed per operator, member and day).
  t = await createTestApp({ config: { approvalThresholdPaise: 5000 } });
  token = await t.login();
  checker = bearer(await accountWithPermissions(t.database, ['money_approve', 'payouts_view']));
});
afterAll(() => t.close());
afterEach(async () => {
  expect(await moneyInvariantViolations(t.database)).toEqual([]);
});

let dayOffset = 0;
async function failedPayout(userId: number, amountPaise: number) {
  dayOffset += 1;
  const [row] = await t.database.query<{ id: string }>(
    `insert into daily_payouts (user_id, payout_date, amount_paise, status, reason)
     values ($1, date '2021-01-01' + $3::int, $2, 'Failure', 'No primary bank account') returning id::text`,
    [userId, amountPaise, dayOffset]);
  return Number(row.id);
}

type Result = { done: { id: number; note?: string }[]; failed: { id: number; message: string }[]; approvalId: number | null };
const bulk = (ids: number[], o: { key?: string; bulkId?: string } = {}) =>
  t.app.inject({ method: 'POST', url: '/api/payouts/payNow/bulk', headers: moneyHeaders(token, o.key ?? randomUUID()), payload: { ids, bulkId: o.bulkId } });
const status = async (id: number) =>
  (await t.database.query<{ status: string }>('select status from daily_payouts where id = $1', [id]))[0].status;
const ledgerCount = async (userId: number) =>
  Number((await t.database.query<{ n: number }>('select count(*)::int as n from ledger_entries where user_id = $1', [userId]))[0].n);

describe('POST /api/payouts/payNow/bulk', () => {
  it('pays what is under the threshold, files the rest as one approval request for the bulk, and the approval pays it', async () => {
    const small = await Promise.all([1, 2, 3].map(() => newMember(t.database, 'Small Payee')));
    const big = await Promise.all([1, 2].map(() => newMember(t.database, 'Big Payee')));
    const smallIds = [];
    for (const userId of small) smallIds.push(await failedPayout(userId, 1000));
    const bigIds = [];
    for (const userId of big) bigIds.push(await failedPayout(userId, 6000));
    const res = await bulk([...smallIds, ...bigIds]);
    expect(res.statusCode).toBe(200);
    const data = res.json().data as Result;
    expect(data.failed).toEqual([]);
    expect(data.approvalId).toEqual(expect.any(Number));
    expect(data.done).toEqual([
      ...smallIds.map((id) => ({ id, note: 'Paid' })),
      ...bigIds.map((id) => ({ id, note: `Awaits approval (request ${data.approvalId})` })),
    ]);
    const requests = await t.database.query<{ kind: string; amount: string; payload: { payoutIds: number[] } }>(
      `select kind, amount_paise::text as amount, payload from money_requests where kind like 'pay_payout%' and status = 'pending'`);
    expect(requests).toEqual([{ kind: 'pay_payout_bulk', amount: '12000', payload: { payoutIds: bigIds } }]);
    for (const userId of small) expect(await balanceOf(t.database, userId)).toBe(1000);
    // A single Pay Now cannot pay a payout the bulk request holds.
    const single = await t.app.inject({
      method: 'POST', url: '/api/transferAdmin', headers: moneyHeaders(token),
      payload: { userId: big[0], amount: 60, typeIncome: 'dailyPayout', payoutId: bigIds[0] },
    });
    expect(single.json()).toEqual({ success: false, message: `Payout ${bigIds[0]} already awaits approval (request ${data.approvalId})` });

    const approved = await t.app.inject({ method: 'POST', url: `/api/approvals/${data.approvalId}/approve`, headers: moneyHeaders(checker['authorization'].slice(7)) });
    expect(approved.statusCode).toBe(200);
    for (const id of bigIds) expect(await status(id)).toBe('Success');
    for (const userId of big) expect(await balanceOf(t.database, userId)).toBe(6000);
  });

  it('sums a member\u2019s payouts across chunks of one bulk: splitting never avoids the threshold, and the held ones share one request', async () => {
    const userId = await newMember(t.database, 'Split Payee');
    const ids = [];
    for (let i = 0; i < 5; i += 1) ids.push(await failedPayout(userId, 2000));
    const bulkId = randomUUID();
    const results: Result[] = [];
    for (const id of ids) results.push((await bulk([id], { bulkId })).json().data);
    expect(results.map((r) => r.done[0].note?.replace(/\d+/, 'N'))).toEqual([
      'Paid', 'Paid', 'Awaits approval (request N)', 'Awaits approval (request N)', 'Awaits approval (request N)',
    ]);
    expect(new Set(results.slice(2).map((r) => r.approvalId)).size).toBe(1);
    const [request] = await t.database.query<{ amount: string; ids: number[] }>(
      `select amount_paise::text as amount, payload->'payoutIds' as ids from money_requests where id = $1`, [results[2].approvalId]);
    expect(request).toEqual({ amount: '6000', ids: ids.slice(2) });
    expect(await balanceOf(t.database, userId)).toBe(4000);
  });

  it('never pays twice: two identical bulks at once, a retried chunk with the same Idempotency-Key, a repeated bulk', async () => {
    const members = await Promise.all([1, 2, 3, 4].map(() => newMember(t.database, 'Twice Payee')));
    const ids = [];
    for (const userId of members) ids.push(await failedPayout(userId, 500));
    const [a, b] = await Promise.all([bulk(ids), bulk(ids)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const notes = [...(a.json().data as Result).done, ...(b.json().data as Result).done].map((d) => d.note);
    expect(notes.filter((n) => n === 'Paid')).toHaveLength(ids.length);
    expect(notes.filter((n) => n === 'Already paid')).toHaveLength(ids.length);
    for (const userId of members) {
      expect(await balanceOf(t.database, userId)).toBe(500);
      expect(await ledgerCount(userId)).toBe(1);
    }

    const more = await newMember(t.database, 'Retry Payee');
    const id = await failedPayout(more, 700);
    const key = randomUUID();
    const first = await bulk([id], { key });
    const retry = await bulk([id], { key });
    expect(retry.json()).toEqual(first.json());
    expect((first.json().data as Result).done).toEqual([{ id, note: 'Paid' }]);
    expect(await ledgerCount(more)).toBe(1);
    const again = await bulk([id, 999_999_999]);
    expect(again.json().data).toEqual({ done: [{ id, note: 'Already paid' }], failed: [{ id: 999_999_999, message: 'Payout 999999999 not found' }], approvalId: null });
  });

  it('validates its body and lists the failed payouts a filter matches', async () => {
    expect((await bulk([])).json()).toMatchObject({ success: false, message: expect.stringContaining('Select at least one payout') });
    const tooMany = Array.from({ length: 501 }, (_, i) => i + 1);
    expect((await bulk(tooMany)).statusCode).toBe(400);
    const userId = await newMember(t.database, 'Listed Payee');
    const id = await failedPayout(userId, 100);
    const res = await t.app.inject({ method: 'GET', url: '/api/wallets/dailyPayout/failedIds?userName=Listed%20Payee', headers: bearer(token) });
    expect(res.json()).toEqual({ success: true, data: [id] });
    expect((await t.app.inject({ method: 'POST', url: '/api/payouts/payNow/bulk', payload: { ids: [id] } })).statusCode).toBe(401);
  });
});
