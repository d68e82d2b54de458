import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signedInApp, type TestContext } from '../../test/harness.ts';
import { balanceOf, moneyHeaders, moneyInvariantsAfterEach, newMember, tokenWithoutPermissions } from '../wallet/money-test-kit.ts';

let t: TestContext;
let token: string;
beforeAll(async () => {
  // 40: the seeded database users.test.ts and reports.test.ts use, made once per run (seeded-templates.ts).
  ({ t, token } = await signedInApp({ members: 40 }));
});
afterAll(() => t.close());
moneyInvariantsAfterEach(() => t.database);

let day = 0;
/** A failed payout of a fresh member, on its own day. */
async function failedPayout(amountPaise = 12345, name = 'Payout Person') {
  const userId = await newMember(t.database, name);
  day += 1;
  const [row] = await t.database.query<{ id: number }>(
    `insert into daily_payouts (user_id, payout_date, amount_paise, status) values ($1, date '2020-01-01' + $2::int, $3, 'Failure') returning id`,
    [userId, day, amountPaise]);
  return { userId, payoutId: Number(row.id), date: (await t.database.query<{ d: string }>('select payout_date::text as d from daily_payouts where id = $1', [row.id]))[0].d };
}

const transfer = (payload: Record<string, unknown>, headers = moneyHeaders(token)) =>
  t.app.inject({ method: 'POST', url: '/api/transferAdmin', headers, payload });

describe('POST /api/transferAdmin', () => {
  it('pays a failed payout: credit and Success in one transaction, with the ledger entry linked and audited', async () => {
    const { userId, payoutId } = await failedPayout(12345);
    const res = await transfer({ userId, amount: 123.45, typeIncome: 'dailyPayout', payoutId });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true, message: 'Payment processed successfully',
      data: { transactionId: expect.any(Number), userId, amount: 123.45, balance: 123.45, payoutId, status: 'Success' },
    });
    const [p] = await t.database.query<{ status: string; ledger_entry_id: string; paid_at: unknown }>(
      'select status, ledger_entry_id::text, paid_at from daily_payouts where id = $1', [payoutId]);
    expect(p.status).toBe('Success');
    expect(Number(p.ledger_entry_id)).toBe(res.json().data.transactionId);
    expect(p.paid_at).toBeTruthy();
    const [l] = await t.database.query<{ kind: string }>('select kind from ledger_entries where id = $1', [p.ledger_entry_id]);
    expect(l.kind).toBe('daily_payout');
    const audits = await t.database.query(`select actor_id from audit_log where action = 'pay_payout' and entity_id = $1`, [String(payoutId)]);
    expect(audits).toHaveLength(1);

    const twice = await transfer({ userId, amount: 123.45, typeIncome: 'dailyPayout', payoutId });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toEqual({ success: false, message: `Payout ${payoutId} has already been paid` });
    expect(await balanceOf(t.database, userId)).toBe(12345);
  });

  it('pays a Failure row the income engine wrote as the run would have: +gross, -TDS, -admin charge, the member gets its amount', async () => {
    const { userId, payoutId } = await failedPayout(1850);
    await t.database.query('update daily_payouts set gross_paise = 2000, tds_paise = 100, admin_charge_paise = 50, reason = $2 where id = $1',
      [payoutId, 'Member is inactive']);
    const res = await transfer({ userId, amount: 18.5, typeIncome: 'dailyPayout', payoutId });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ userId, amount: 18.5, balance: 18.5, status: 'Success' });
    const lines = await t.database.query<{ id: string; kind: string; amount: string }>(
      'select id::text, kind, amount_paise::text as amount from ledger_entries where user_id = $1 order by id', [userId]);
    expect(lines.map((l) => [l.kind, Number(l.amount)])).toEqual([['daily_payout', 2000], ['tds', -100], ['admin_charge', -50]]);
    expect(res.json().data.transactionId).toBe(Number(lines[0].id));
    expect(await balanceOf(t.database, userId)).toBe(1850);
  });

  it('transfers without a payout: wallet recharge is an admin_transfer ledger row', async () => {
    const userId = await newMember(t.database);
    const res = await transfer({ userId, amount: 10, typeIncome: 'wallet recharge' });
    expect(res.json().data).toMatchObject({ userId, balance: 10, payoutId: null, status: null });
    const [l] = await t.database.query<{ kind: string }>('select kind from ledger_entries where id = $1', [res.json().data.transactionId]);
    expect(l.kind).toBe('admin_transfer');
  });

  it('refuses a wrong member, a wrong amount, an unknown payout, and bad bodies; nothing is written', async () => {
    const { userId, payoutId } = await failedPayout(5000);
    const other = await newMember(t.database);
    const wrongUser = await transfer({ userId: other, amount: 50, typeIncome: 'dailyPayout', payoutId });
    expect(wrongUser.statusCode).toBe(400);
    expect(wrongUser.json().message).toBe(`Payout ${payoutId} belongs to member ${userId}, not ${other}`);
    const wrongAmount = await transfer({ userId, amount: 49.99, typeIncome: 'dailyPayout', payoutId });
    expect(wrongAmount.json()).toEqual({ success: false, message: 'The amount must equal the payout amount of 50.00' });
    expect((await transfer({ userId, amount: 50, typeIncome: 'dailyPayout', payoutId: 999999999 })).statusCode).toBe(404);
    expect((await transfer({ userId, amount: 50, typeIncome: 'salary' })).json().message).toContain("typeIncome must be dailyPayout or 'wallet recharge'");
    expect((await transfer({ userId, amount: 0, typeIncome: 'dailyPayout' })).statusCode).toBe(400);
    expect((await transfer({ amount: 5, typeIncome: 'dailyPayout' })).statusCode).toBe(400);
    expect((await transfer({ userId: 999999999, amount: 5, typeIncome: 'dailyPayout' })).statusCode).toBe(404);
    const [p] = await t.database.query<{ status: string }>('select status from daily_payouts where id = $1', [payoutId]);
    expect(p.status).toBe('Failure');
    expect(await balanceOf(t.database, userId)).toBe(0);
  });

  it('answers 401 without a token and 403 without payouts_pay', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/transferAdmin', payload: {} })).statusCode).toBe(401);
    const weak = await transfer({ userId: 1, amount: 1, typeIncome: 'dailyPayout' }, moneyHeaders(await tokenWithoutPermissions(t)));
    expect(weak.statusCode).toBe(403);
  });

  it('20 parallel requests with one Idempotency-Key write one ledger row and all get the same answer', async () => {
    const userId = await newMember(t.database);
    const headers = moneyHeaders(token, 'parallel-transfer-key-1');
    const results = await Promise.all(Array.from({ length: 20 }, () =>
      transfer({ userId, amount: 7.5, typeIncome: 'wallet recharge' }, headers)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect(new Set(results.map((r) => r.json().data.transactionId)).size).toBe(1);
    const [n] = await t.database.query<{ n: number }>('select count(*)::int as n from ledger_entries where user_id = $1', [userId]);
    expect(n.n).toBe(1);
    expect(await balanceOf(t.database, userId)).toBe(750);
  });

  it('paying one payout from two requests at once: one succeeds, one gets 409', async () => {
    const { userId, payoutId } = await failedPayout(2500);
    const [a, b] = await Promise.all([
      transfer({ userId, amount: 25, typeIncome: 'dailyPayout', payoutId }),
      transfer({ userId, amount: 25, typeIncome: 'dailyPayout', payoutId }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect(await balanceOf(t.database, userId)).toBe(2500);
  });
});

describe('GET /api/wallets/dailyPayout', () => {
  const get = (query: string, headers = bearer(token)) =>
    t.app.inject({ method: 'GET', url: `/api/wallets/dailyPayout${query}`, headers });

  it('lists payouts with the spec fields, the four totals and the per-day chart', async () => {
    const res = await get('?limit=5');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const [expected] = await t.database.query<{ n: number; paise: string; ok: number; bad: number }>(`
      select count(*)::int as n, sum(amount_paise)::text as paise,
             count(*) filter (where status = 'Success')::int as ok, count(*) filter (where status = 'Failure')::int as bad
        from daily_payouts`);
    expect(body.totals).toEqual({ count: expected.n, amount: Number(expected.paise) / 100, successful: expected.ok, failed: expected.bad, reversed: 0 });
    expect(body.total).toBe(expected.n);
    expect(body.data).toHaveLength(5);
    expect(Object.keys(body.data[0]).sort()).toEqual(['adminCharge', 'amount', 'date', 'gross', 'id', 'paidAt', 'reason', 'reversalReason', 'reversedAt', 'reversedByName', 'reversedStatus', 'runId', 'status', 'tds', 'userId', 'userName']);
    expect(body.daily.reduce((s: number, d: { successful: number; failed: number }) => s + d.successful + d.failed, 0)).toBe(expected.n);
  });

  it('filters by date range, status and user name; the cards and chart describe exactly the rows selected (issue 15 item 5)', async () => {
    const { date } = await failedPayout(4200, 'Zebulon Filterman');
    const [dd, mm, yyyy] = [date.slice(8, 10), date.slice(5, 7), date.slice(0, 4)];
    const wire = `${dd}-${mm}-${yyyy}`;
    const res = (await get(`?fromDate=${wire}&toDate=${wire}&status=Failure&userName=zebulon`)).json();
    expect(res.total).toBe(1);
    expect(res.data[0]).toMatchObject({ userName: 'Zebulon Filterman', amount: 42, date, status: 'Failure', paidAt: null });
    expect(res.totals).toEqual({ count: 1, amount: 42, successful: 0, failed: 1, reversed: 0 });
    expect(res.daily).toEqual([{ date, successful: 0, failed: 1 }]);
    // Another status than the rows': no rows, and the cards say so (name filter, and the rollup without one).
    for (const query of [`status=Success&userName=zebulon`, 'status=Success']) {
      const success = (await get(`?fromDate=${wire}&toDate=${wire}&${query}`)).json();
      expect(success).toMatchObject({ total: 0, data: [], daily: [], totals: { count: 0, amount: 0, successful: 0, failed: 0 } });
    }
    const failed = (await get(`?fromDate=${wire}&toDate=${wire}&status=Failure`)).json();
    expect(failed).toMatchObject({ total: 1, totals: { count: 1, amount: 42, successful: 0, failed: 1 } });
    const fromOnly = (await get(`?fromDate=${wire}&userName=zebulon`)).json();
    expect(fromOnly.total).toBe(1);
  });

  it('keeps the cards and the chart on a page past the end (issue 23: one statement, the totals ride on the rows)', async () => {
    for (const query of ['', '&status=Failure', '&userName=zebulon']) {
      const first = (await get(`?limit=5${query}`)).json();
      const past = (await get(`?limit=5&page=1900${query}`)).json();
      expect(first.total).toBeGreaterThan(0);
      expect(past).toMatchObject({ data: [], total: first.total, totals: first.totals, daily: first.daily });
    }
  });

  it('sorts by date, amount and status in either direction, stable across pages', async () => {
    const [{ n }] = await t.database.query<{ n: number }>('select count(*)::int as n from daily_payouts');
    const all = async (sort: string) => {
      const rows: { id: number; amount: number; date: string; status: string }[] = [];
      for (let page = 1; rows.length < n; page += 1) rows.push(...(await get(`?sort=${sort}&limit=7&page=${page}`)).json().data);
      return rows;
    };
    const byAmount = await all('-amount');
    expect(new Set(byAmount.map((r) => r.id)).size).toBe(n);
    expect(byAmount.map((r) => r.amount)).toEqual([...byAmount.map((r) => r.amount)].sort((a, b) => b - a));
    const up = await all('amount');
    expect(up[0].amount).toBe(Math.min(...up.map((r) => r.amount)));
    const byStatus = (await all('status')).map((r) => r.status);
    expect(byStatus).toEqual([...byStatus].sort());
    const newest = (await get('?limit=3')).json().data;
    expect(newest[0].date >= newest[2].date).toBe(true);
    expect((await get('?sort=userId')).json().message).toContain('Sort must be one of: date, -date, amount, -amount, status, -status');
  });

  it('validates dates and status and answers 401/403', async () => {
    expect((await get('?fromDate=31-02-2026')).json().message).toContain('Date must be a real date in dd-mm-yyyy format');
    expect((await get('?fromDate=2026-01-01')).statusCode).toBe(400);
    const reversed = await get('?fromDate=10-01-2026&toDate=01-01-2026');
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().message).toContain('fromDate must not be after toDate');
    expect((await get('?status=Pending')).json().message).toContain('status must be Success, Failure or Reversed');
    expect((await t.app.inject({ method: 'GET', url: '/api/wallets/dailyPayout' })).statusCode).toBe(401);
    expect((await get('', bearer(await tokenWithoutPermissions(t)))).statusCode).toBe(403);
  });

  it('streams the whole filtered list as CSV', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/wallets/dailyPayout.csv?status=Failure', headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="daily-payouts.csv"');
    const lines = res.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('ID,User ID,User Name,Gross,TDS,Admin Charge,Net,Date,Status,Paid At,Reason,Reversed By,Reversal Reason');
    const [n] = await t.database.query<{ n: number }>(`select count(*)::int as n from daily_payouts where status = 'Failure'`);
    expect(lines).toHaveLength(n.n + 1);
    expect(lines.slice(1).every((l) => l.includes(',Failure,'))).toBe(true);
  });
});
