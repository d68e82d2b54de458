import { beforeAll, describe, expect, it } from 'vitest';
import { bookHistory } from '../../db/books.ts';
import { indiaTimestamp } from '../../lib/csv.ts';
import { bearer } from '../../test/harness.ts';
import { balanceOf, moneyHeaders, moneyTestApp, newMember } from './money-test-kit.ts';

// 20: the seeded database ranks.test.ts, wallet.test.ts and others use, made once per run (seeded-templates.ts).
const suite = moneyTestApp({ members: 20 });

const get = (url: string) => suite.t.app.inject({ method: 'GET', url, headers: bearer(suite.token) });

/** Wallet rows written straight into the ledger (with the balance they add up to), at chosen times. */
async function walletRows(userId: number, rows: { kind: 'wallet_recharge' | 'wallet_withdrawal'; paise: number; at: string }[]) {
  await suite.t.database.query(
    `insert into ledger_entries (user_id, kind, amount_paise, description, created_at, transfer_id)
     select $1, r.kind, r.paise, 'test', r.at::timestamptz, nextval(pg_get_serial_sequence('transfers', 'id')) from jsonb_to_recordset($2::jsonb) as r(kind text, paise int8, at text)`,
    [userId, JSON.stringify(rows)],
  );
  await bookHistory(suite.t.database.db);
  await suite.t.database.query(
    'update users set balance_paise = (select sum(amount_paise) from ledger_entries where user_id = $1) where user_id = $1', [userId]);
}

describe('finding 8: the wallet CSV export pages by key', () => {
  it('returns every wallet row exactly once, newest first, across batch boundaries, when rows share a millisecond', async () => {
    const userId = await newMember(suite.t.database, 'Export Person');
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
    const expected = await suite.t.database.query<{ id: string; kind: string; created_at: Date | string }>(
      `select l.id::text as id, l.kind, l.created_at from ledger_entries l
        where l.kind in ('wallet_recharge', 'wallet_withdrawal') order by l.created_at desc, l.id desc`);
    expect(expected.length).toBeGreaterThan(2600);
    expect(lines.map((l) => l.split(',')[0])).toEqual(expected.map((r) => r.id));
    expect(lines.map((l) => l.split(',')[4])).toEqual(expected.map((r) => r.kind));
    expect(lines.map((l) => l.split(',')[6])).toEqual(expected.map((r) => indiaTimestamp(new Date(r.created_at))));
  });
});

describe('finding 10: walletHistory?transactionType=wallet_recharge&userId=X', () => {
  it("lists only that member's wallet transactions, with their count as the total; without userId, everyone's", async () => {
    const mine = await newMember(suite.t.database, 'Filter Mine');
    const other = await newMember(suite.t.database, 'Filter Other');
    await walletRows(mine, [
      { kind: 'wallet_recharge', paise: 5000, at: '2024-05-01 09:00+00' },
      { kind: 'wallet_withdrawal', paise: -2000, at: '2024-05-02 09:00+00' },
    ]);
    await walletRows(other, [{ kind: 'wallet_recharge', paise: 7000, at: '2024-05-03 09:00+00' }]);
    // A membership fee is a ledger row of the member, but not a wallet transaction.
    await suite.t.database.query(
      `insert into ledger_entries (user_id, kind, amount_paise, description, transfer_id) values ($1, 'membership_fee', -1000, 'fee', nextval(pg_get_serial_sequence('transfers', 'id')))`, [mine]);
    await bookHistory(suite.t.database.db);
    await suite.t.database.query('update users set balance_paise = balance_paise - 1000 where user_id = $1', [mine]);

    const res = await get(`/api/users/walletHistory?transactionType=wallet_recharge&userId=${mine}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, total: 2, page: 1, limit: 25 });
    expect(res.json().data.map((r: { userId: number; transactionType: string; amount: number }) => [r.userId, r.transactionType, r.amount]))
      .toEqual([[mine, 'wallet_withdrawal', 20], [mine, 'wallet_recharge', 50]]);

    const all = (await get('/api/users/walletHistory?transactionType=wallet_recharge&limit=500')).json();
    const [count] = await suite.t.database.query<{ n: number }>(
      `select count(*)::int as n from ledger_entries where kind in ('wallet_recharge', 'wallet_withdrawal')`);
    expect(all.total).toBe(count.n);
    expect(new Set(all.data.map((r: { userId: number }) => r.userId))).toContain(other);
    expect((await get('/api/users/walletHistory?transactionType=wallet_recharge&userId=999999999')).json())
      .toMatchObject({ success: true, data: [], total: 0 });
  });
});

describe('finding 10: money amounts are JSON numbers', () => {
  it('refuses true and "100" as an amount on every money route, and writes nothing', async () => {
    const userId = await newMember(suite.t.database, 'Amount Person');
    const [payout] = await suite.t.database.query<{ id: number }>(
      `insert into daily_payouts (user_id, payout_date, amount_paise, status) values ($1, date '2021-06-01', 10000, 'Failure') returning id`,
      [userId]);
    const send = (url: string, payload: Record<string, unknown>) =>
      suite.t.app.inject({ method: 'POST', url, headers: { ...moneyHeaders(suite.token), 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
    const before = await suite.t.database.query<{ n: number }>('select count(*)::int as n from ledger_entries');
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
    expect(await suite.t.database.query<{ n: number }>('select count(*)::int as n from ledger_entries')).toEqual(before);
    expect(await suite.t.database.query('select id from withdrawal_requests where user_id = $1', [userId])).toEqual([]);
    expect(await balanceOf(suite.t.database, userId)).toBe(0);
    // A real number still goes through.
    const ok = await send('/api/wallets/userWalletRecharge', { userId, amount: 100, transactionType: 'wallet_recharge' });
    expect(ok.statusCode).toBe(200);
    expect(await balanceOf(suite.t.database, userId)).toBe(10000);
  });
});

describe('issue 15 item 1: the wallet list filters and sorts on the server', () => {
  type Row = { id: number; amount: number; transactionType: string };
  let ids: number[];
  let asha: number;
  let bala: number;
  const range = 'fromDate=01-06-2021&toDate=04-06-2021';
  const list = async (query: string) => {
    const res = await get(`/api/users/walletHistory?transactionType=wallet_recharge&${query}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { data: Row[]; total: number };
    return { rows: body.data.map((r) => ids.indexOf(r.id) + 1), total: body.total };
  };

  beforeAll(async () => {
    asha = await newMember(suite.t.database, 'Filter Asha');
    bala = await newMember(suite.t.database, 'Filter Bala');
    // Rows 1–6 in id order; row 4 is 2 June in India but 1 June in UTC.
    const rows: [number, 'wallet_recharge' | 'wallet_withdrawal', number, string][] = [
      [asha, 'wallet_recharge', 10000, '2021-06-01 10:00+05:30'],
      [bala, 'wallet_recharge', 60000, '2021-06-01 09:00+05:30'],
      [asha, 'wallet_withdrawal', -3000, '2021-06-02 10:00+05:30'],
      [bala, 'wallet_recharge', 3000, '2021-06-02 00:15+05:30'],
      [asha, 'wallet_recharge', 25050, '2021-06-03 23:30+05:30'],
      [bala, 'wallet_withdrawal', -50000, '2021-06-04 09:00+05:30'],
    ];
    ids = [];
    for (const [userId, kind, paise, at] of rows) {
      const [row] = await suite.t.database.query<{ id: number }>(
        `insert into ledger_entries (user_id, kind, amount_paise, description, created_at, transfer_id) values ($1, $2, $3, 'filters', $4::timestamptz, nextval(pg_get_serial_sequence('transfers', 'id'))) returning id`,
        [userId, kind, paise, at]);
      ids.push(Number(row.id));
    }
    await bookHistory(suite.t.database.db);
    for (const userId of [asha, bala]) {
      await suite.t.database.query(
        'update users set balance_paise = (select sum(amount_paise) from ledger_entries where user_id = $1) where user_id = $1', [userId]);
    }
  });

  it('filters by date range (India days), type, member and amount (as shown, without sign), each with its total', async () => {
    expect(await list(range)).toEqual({ rows: [6, 5, 3, 4, 1, 2], total: 6 });
    expect(await list('fromDate=02-06-2021&toDate=02-06-2021')).toEqual({ rows: [3, 4], total: 2 });
    expect(await list(`${range}&type=wallet_withdrawal`)).toEqual({ rows: [6, 3], total: 2 });
    expect(await list(`${range}&type=wallet_recharge`)).toEqual({ rows: [5, 4, 1, 2], total: 4 });
    expect(await list(`userId=${asha}`)).toEqual({ rows: [5, 3, 1], total: 3 });
    expect(await list(`${range}&minAmount=30&maxAmount=100`)).toEqual({ rows: [3, 4, 1], total: 3 });
    expect(await list(`${range}&minAmount=250.5`)).toEqual({ rows: [6, 5, 2], total: 3 });
    expect(await list(`${range}&maxAmount=30.00`)).toEqual({ rows: [3, 4], total: 2 });
    expect(await list(`userId=${bala}&type=wallet_recharge&minAmount=100&fromDate=01-06-2021`)).toEqual({ rows: [2], total: 1 });
  });

  it('sorts by date or amount both ways, a stable order across pages', async () => {
    expect((await list(`${range}&sort=createdAt`)).rows).toEqual([2, 1, 4, 3, 5, 6]);
    expect((await list(`${range}&sort=amount`)).rows).toEqual([3, 4, 1, 5, 6, 2]);
    expect((await list(`${range}&sort=-amount`)).rows).toEqual([2, 6, 5, 1, 4, 3]);
    expect(await list(`${range}&sort=amount&limit=2&page=2`)).toEqual({ rows: [1, 5], total: 6 });
    expect((await list(`userId=${asha}&sort=-amount`)).rows).toEqual([5, 1, 3]);
  });

  it('reports the total with a page past the end, and 0 when nothing matches (issue 23: the page carries its total)', async () => {
    expect(await list(`${range}&limit=2&page=9`)).toEqual({ rows: [], total: 6 });
    expect(await list(`userId=${asha}&limit=2&page=5`)).toEqual({ rows: [], total: 3 });
    expect(await list(`${range}&minAmount=99999`)).toEqual({ rows: [], total: 0 });
  });

  it('exports the same filtered rows in the same order, in keyset batches', async () => {
    const csv = async (query: string) => {
      const res = await get(`/api/users/walletHistory.csv?${query}`);
      expect(res.statusCode).toBe(200);
      return res.body.replace(/^\uFEFF/, '').trim().split('\r\n').slice(1).map((l) => ids.indexOf(Number(l.split(',')[0])) + 1);
    };
    expect(await csv(`${range}&sort=-amount`)).toEqual([2, 6, 5, 1, 4, 3]);
    expect(await csv(`${range}&type=wallet_recharge&maxAmount=100`)).toEqual([4, 1]);
    // Batches of 2: the cursor carries on exactly, in each order.
    const { walletTransactionsBatch } = await import('./wallet.repository.ts');
    for (const [sort, expected] of [['amount', [3, 4, 1, 5, 6, 2]], ['-amount', [2, 6, 5, 1, 4, 3]], ['createdAt', [2, 1, 4, 3, 5, 6]]] as const) {
      const seen: number[] = [];
      let cursor = null;
      do {
        const batch: Awaited<ReturnType<typeof walletTransactionsBatch>> = await walletTransactionsBatch(
          suite.t.database, { fromDate: '2021-06-01', toDate: '2021-06-04', sort }, cursor, 2);
        seen.push(...batch.rows.map((r) => ids.indexOf(r.id) + 1));
        cursor = batch.next;
      } while (cursor);
      expect({ sort, seen }).toEqual({ sort, seen: expected });
    }
  });

  it('refuses bad filter values with a plain message', async () => {
    const refused = async (query: string) => {
      const res = await get(`/api/users/walletHistory?transactionType=wallet_recharge&${query}`);
      return [res.statusCode, res.json().message];
    };
    const amountMessage = 'minAmount must be an amount in rupees with at most 2 decimals';
    for (const bad of ['1e5', '-5', '10.555', '1,000', 'abc']) expect(await refused(`minAmount=${bad}`)).toEqual([400, amountMessage]);
    expect(await refused('maxAmount=%2B5')).toEqual([400, 'maxAmount must be an amount in rupees with at most 2 decimals']);
    expect(await refused('minAmount=50&maxAmount=10')).toEqual([400, 'minAmount must not be more than maxAmount']);
    expect(await refused('type=credit')).toEqual([400, expect.stringMatching(/^type must be one of: wallet_recharge, wallet_withdrawal, membership_fee, /)]);
    expect(await refused('sort=fullName')).toEqual([400, 'Sort must be one of: createdAt, -createdAt, amount, -amount']);
    expect(await refused('fromDate=2021-06-01')).toEqual([400, 'Date must be a real date in dd-mm-yyyy format']);
    expect(await refused('fromDate=04-06-2021&toDate=01-06-2021')).toEqual([400, 'fromDate must not be after toDate']);
    expect((await get('/api/users/walletHistory.csv?minAmount=1e5')).statusCode).toBe(400);
  });
});

describe('issue 24: the wallet list filters every kind the ledger has', () => {
  let ids: number[] = [];
  let member: number;
  const range = 'fromDate=01-09-2021&toDate=30-09-2021';
  const list = async (query: string) => {
    const res = await get(`/api/users/walletHistory?transactionType=wallet_recharge&${range}&${query}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { data: { id: number; amount: number; transactionType: string; type: string }[]; total: number };
    return { rows: body.data.map((r) => [ids.indexOf(r.id) + 1, r.transactionType, r.type, r.amount]), total: body.total };
  };

  beforeAll(async () => {
    member = await newMember(suite.t.database, 'Kinds Person');
    // 1–5 in id order: a payout, its TDS, level income, the payout's reversal (a debit of the same kind), a recharge.
    const rows: [string, number, string][] = [
      ['daily_payout', 1000, '2021-09-01 10:00+05:30'],
      ['tds', -50, '2021-09-01 10:00+05:30'],
      ['level_income', 2500, '2021-09-02 10:00+05:30'],
      ['daily_payout', -1000, '2021-09-03 10:00+05:30'],
      ['wallet_recharge', 700, '2021-09-04 10:00+05:30'],
    ];
    ids = [];
    for (const [kind, paise, at] of rows) {
      const [row] = await suite.t.database.query<{ id: number }>(
        `insert into ledger_entries (user_id, kind, amount_paise, description, created_at, transfer_id) values ($1, $2, $3, 'kinds', $4::timestamptz, nextval(pg_get_serial_sequence('transfers', 'id'))) returning id`,
        [member, kind, paise, at]);
      ids.push(Number(row.id));
    }
    await bookHistory(suite.t.database.db);
    await suite.t.database.query(
      'update users set balance_paise = (select sum(amount_paise) from ledger_entries where user_id = $1) where user_id = $1', [member]);
  });

  it('lists one kind, both ways, with credit or debit; without a type the spec\u2019s recharges and withdrawals', async () => {
    expect(await list('type=daily_payout')).toEqual({ rows: [[4, 'daily_payout', 'debit', 10], [1, 'daily_payout', 'credit', 10]], total: 2 });
    expect(await list('type=level_income')).toEqual({ rows: [[3, 'level_income', 'credit', 25]], total: 1 });
    expect(await list('type=tds')).toEqual({ rows: [[2, 'tds', 'debit', 0.5]], total: 1 });
    expect((await list(`userId=${member}`)).rows).toEqual([[5, 'wallet_recharge', 'credit', 7]]);
    expect((await list(`userId=${member}&type=daily_payout&sort=createdAt`)).rows.map((r) => r[0])).toEqual([1, 4]);
  });

  it('sorts and bounds another kind by the amount as shown, and exports it with its sign', async () => {
    const [recharge] = await suite.t.database.query<{ id: number }>(
      `insert into ledger_entries (user_id, kind, amount_paise, description, created_at, transfer_id) values ($1, 'daily_payout', 300, 'kinds', '2021-09-05 10:00+05:30', nextval(pg_get_serial_sequence('transfers', 'id'))) returning id`,
      [member]);
    await bookHistory(suite.t.database.db);
    ids.push(Number(recharge.id));
    await suite.t.database.query('update users set balance_paise = balance_paise + 300 where user_id = $1', [member]);
    expect((await list('type=daily_payout&sort=amount')).rows.map((r) => r[0])).toEqual([6, 1, 4]);
    expect((await list('type=daily_payout&sort=-amount')).rows.map((r) => r[0])).toEqual([4, 1, 6]);
    expect((await list('type=daily_payout&minAmount=5')).rows.map((r) => r[0])).toEqual([4, 1]);
    expect((await list('type=daily_payout&maxAmount=3')).rows.map((r) => r[0])).toEqual([6]);
    const res = await get(`/api/users/walletHistory.csv?${range}&type=daily_payout&sort=-amount`);
    const rows = res.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(rows[0]).toBe('ID,User ID,User,Full Name,Type,Amount,Date & Time (IST)');
    expect(rows.slice(1).map((l) => l.split(',').slice(4))).toEqual([
      // A negative amount stays a number (lib/csv.ts defuses only text a spreadsheet could run).
      ['daily_payout', '-10.00', '2021-09-03T10:00:00+05:30'],
      ['daily_payout', '10.00', '2021-09-01T10:00:00+05:30'],
      ['daily_payout', '3.00', '2021-09-05T10:00:00+05:30'],
    ]);
  });
});
