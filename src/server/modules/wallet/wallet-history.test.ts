import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { moneyInvariantViolations } from '../../lib/money-invariants.ts';
import { bearer, createTestApp, type TestContext } from '../../test/harness.ts';
import { balanceOf, moneyHeaders, newMember } from './money-test-kit.ts';

let t: TestContext;
let token: string;
beforeAll(async () => {
  t = await createTestApp({ members: 10 });
  token = await t.login();
});
afterAll(() => t.close());
afterEach(async () => {
  expect(await moneyInvariantViolations(t.database)).toEqual([]);
});

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });

/** Wallet rows written straight into the ledger (with the balance they add up to), at chosen times. */
async function walletRows(userId: number, rows: { kind: 'wallet_recharge' | 'wallet_withdrawal'; paise: number; at: string }[]) {
  await t.database.query(
    `insert into ledger_entries (user_id, kind, amount_paise, description, created_at)
     select $1, r.kind, r.paise, 'test', r.at::timestamptz from jsonb_to_recordset($2::jsonb) as r(kind text, paise int8, at text)`,
    [userId, JSON.stringify(rows)],
  );
  await t.database.query(
    'update users set balance_paise = (select sum(amount_paise) from ledger_entries where user_id = $1) where user_id = $1', [userId]);
}

describe('finding 8: the wallet CSV export pages by key', () => {
  it('returns every wallet row exactly once, newest first, across batch boundaries, when rows share a millisecond', async () => {
    const userId = await newMember(t.database, 'Export Person');
    // 2,600 rows over 3 batches of 1,000: many share one timestamp, and many differ only in the
    // microseconds within one millisecond, so a cursor kept at millisecond precision skips or repeats.
    const rows = Array.from({ length: 2600 }, (_, i) => ({
      kind: (i % 7 === 3 ? 'wallet_withdrawal' : 'wallet_recharge') as 'wallet_recharge' | 'wallet_withdrawal',
      paise: i % 7 === 3 ? -100 : 1000,
      at: i % 3 === 0 ? '2024-03-01 10:00:00.123+00' : `2024-03-01 10:00:00.123${String(i % 900).padStart(3, '0')}+00`,
    }));
    await walletRows(userId, rows);
    const res = await get('/api/users/walletHistory.csv');
    expect(res.statusCode).toBe(200);
    const lines = res.body.replace(/^\uFEFF/, '').trim().split('\r\n').slice(1);
    const expected = await t.database.query<{ id: string; kind: string; created_at: Date | string }>(
      `select l.id::text as id, l.kind, l.created_at from ledger_entries l
        where l.kind in ('wallet_recharge', 'wallet_withdrawal') order by l.created_at desc, l.id desc`);
    expect(expected.length).toBeGreaterThan(2600);
    expect(lines.map((l) => l.split(',')[0])).toEqual(expected.map((r) => r.id));
    expect(lines.map((l) => l.split(',')[4])).toEqual(expected.map((r) => r.kind));
    expect(lines.map((l) => l.split(',')[6])).toEqual(expected.map((r) => new Date(r.created_at).toISOString()));
  });
});

describe('finding 10: walletHistory?transactionType=wallet_recharge&userId=X', () => {
  it("lists only that member's wallet transactions, with their count as the total; without userId, everyone's", async () => {
    const mine = await newMember(t.database, 'Filter Mine');
    const other = await newMember(t.database, 'Filter Other');
    await walletRows(mine, [
      { kind: 'wallet_recharge', paise: 5000, at: '2024-05-01 09:00+00' },
      { kind: 'wallet_withdrawal', paise: -2000, at: '2024-05-02 09:00+00' },
    ]);
    await walletRows(other, [{ kind: 'wallet_recharge', paise: 7000, at: '2024-05-03 09:00+00' }]);
    // A membership fee is a ledger row of the member, but not a wallet transaction.
    await t.database.query(
      `insert into ledger_entries (user_id, kind, amount_paise, description) values ($1, 'membership_fee', -1000, 'fee')`, [mine]);
    await t.database.query('update users set balance_paise = balance_paise - 1000 where user_id = $1', [mine]);

    const res = await get(`/api/users/walletHistory?transactionType=wallet_recharge&userId=${mine}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, total: 2, page: 1, limit: 25 });
    expect(res.json().data.map((r: { userId: number; transactionType: string; amount: number }) => [r.userId, r.transactionType, r.amount]))
      .toEqual([[mine, 'wallet_withdrawal', 20], [mine, 'wallet_recharge', 50]]);

    const all = (await get('/api/users/walletHistory?transactionType=wallet_recharge&limit=500')).json();
    const [count] = await t.database.query<{ n: number }>(
      `select count(*)::int as n from ledger_entries where kind in ('wallet_recharge', 'wallet_withdrawal')`);
    expect(all.total).toBe(count.n);
    expect(new Set(all.data.map((r: { userId: number }) => r.userId))).toContain(other);
    expect((await get('/api/users/walletHistory?transactionType=wallet_recharge&userId=999999999')).json())
      .toMatchObject({ success: true, data: [], total: 0 });
  });
});

describe('finding 10: money amounts are JSON numbers', () => {
  it('refuses true and "100" as an amount on every money route, and writes nothing', async () => {
    const userId = await newMember(t.database, 'Amount Person');
    const [payout] = await t.database.query<{ id: number }>(
      `insert into daily_payouts (user_id, payout_date, amount_paise, status) values ($1, date '2021-06-01', 10000, 'Failure') returning id`,
      [userId]);
    const send = (url: string, payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url, headers: { ...moneyHeaders(token), 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
    const before = await t.database.query<{ n: number }>('select count(*)::int as n from ledger_entries');
    for (const amount of [true, '100', '1e2', null]) {
      for (const [url, body] of [
        ['/api/wallets/userWalletRecharge', { userId, amount, transactionType: 'wallet_recharge' }],
        ['/api/wallet/withdrawal', { userId, amount }],
        ['/api/transferAdmin', { userId, amount, typeIncome: 'dailyPayout', payoutId: Number(payout.id) }],
      ] as const) {
        const res = await send(url, body);
        expect({ url, amount, status: res.statusCode, message: res.json().message })
          .toEqual({ url, amount, status: 400, message: 'Amount must be a number' });
      }
    }
    expect(await t.database.query<{ n: number }>('select count(*)::int as n from ledger_entries')).toEqual(before);
    expect(await t.database.query('select id from withdrawal_requests where user_id = $1', [userId])).toEqual([]);
    expect(await balanceOf(t.database, userId)).toBe(0);
    // A real number still goes through.
    const ok = await send('/api/wallets/userWalletRecharge', { userId, amount: 100, transactionType: 'wallet_recharge' });
    expect(ok.statusCode).toBe(200);
    expect(await balanceOf(t.database, userId)).toBe(10000);
  });
});
