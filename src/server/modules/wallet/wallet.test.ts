import { beforeAll, describe, expect, it } from 'vitest';
import { bookHistory } from '../../db/books.ts';
import { accountWithPermissions } from '../../test/accounts.ts';
import { bearer } from '../../test/harness.ts';
import { balanceOf, moneyHeaders, moneyTestApp, newMember, tokenWithoutPermissions } from './money-test-kit.ts';

const suite = moneyTestApp({ members: 20 });

const recharge = (payload: Record<string, unknown>, headers: Record<string, string> = moneyHeaders(suite.token)) =>
  suite.t.app.inject({ method: 'POST', url: '/api/wallets/userWalletRecharge', headers, payload });

describe('POST /api/wallets/userWalletRecharge', () => {
  it('recharges and withdraws, writing one ledger row each, an audit row with the acting account, and the balance', async () => {
    const userId = await newMember(suite.t.database);
    const up = await recharge({ userId, amount: 250.75, transactionType: 'wallet_recharge' });
    expect(up.statusCode).toBe(200);
    expect(up.json()).toMatchObject({ success: true, message: 'Wallet recharged successfully', data: { userId, amount: 250.75, balance: 250.75 } });
    const down = await recharge({ userId, amount: 50.25, transactionType: 'wallet_withdrawal' });
    expect(down.json()).toMatchObject({ success: true, message: 'Wallet withdrawal completed successfully', data: { balance: 200.5 } });
    expect(await balanceOf(suite.t.database, userId)).toBe(20050);
    const ledger = await suite.t.database.query<{ kind: string; amount_paise: string }>(
      'select kind, amount_paise::text from ledger_entries where user_id = $1 order by id', [userId]);
    expect(ledger).toEqual([{ kind: 'wallet_recharge', amount_paise: '25075' }, { kind: 'wallet_withdrawal', amount_paise: '-5025' }]);
    const audits = await suite.t.database.query<{ action: string; actor_id: string }>(
      `select action, actor_id::text from audit_log where entity = 'ledger_entry' and after->>'userId' = $1 order by id`, [String(userId)]);
    expect(audits.map((a) => a.action)).toEqual(['wallet_recharge', 'wallet_withdrawal']);
    expect(audits.every((a) => Number(a.actor_id) > 0)).toBe(true);
  });

  it('audits each accepted movement once — with or without an Idempotency-Key — and no refusal or replay', async () => {
    const userId = await newMember(suite.t.database);
    const audits = async () => (await suite.t.database.query<{ action: string; after: { amountPaise: number } }>(
      `select action, after from audit_log where entity = 'ledger_entry' and after->>'userId' = $1 order by id`, [String(userId)]));
    const keyed = moneyHeaders(suite.token, 'audit-once-key-1');
    expect((await recharge({ userId, amount: 40, transactionType: 'wallet_recharge' }, keyed)).statusCode).toBe(200);
    expect((await recharge({ userId, amount: 40, transactionType: 'wallet_recharge' }, keyed)).headers['idempotent-replayed']).toBe('true');
    expect((await recharge({ userId, amount: 15, transactionType: 'wallet_withdrawal' }, bearer(suite.token))).statusCode).toBe(200);
    expect((await recharge({ userId, amount: 500, transactionType: 'wallet_withdrawal' })).statusCode).toBe(400);
    expect((await audits()).map((a) => [a.action, a.after.amountPaise])).toEqual([['wallet_recharge', 4000], ['wallet_withdrawal', -1500]]);
  });

  it('refuses a withdrawal above the balance with a clear message and writes nothing', async () => {
    const userId = await newMember(suite.t.database);
    await recharge({ userId, amount: 100, transactionType: 'wallet_recharge' });
    const before = await suite.t.database.query('select count(*)::int as n from ledger_entries');
    const res = await recharge({ userId, amount: 100.01, transactionType: 'wallet_withdrawal' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, message: 'Insufficient wallet balance: the member has 100.00 and 100.01 was requested' });
    expect(await suite.t.database.query('select count(*)::int as n from ledger_entries')).toEqual(before);
    expect(await balanceOf(suite.t.database, userId)).toBe(10000);
  });

  it.each([
    [{ amount: 10, transactionType: 'wallet_recharge' }, 'userId must be a number'],
    [{ userId: 1, amount: 0, transactionType: 'wallet_recharge' }, 'Amount must be greater than 0'],
    [{ userId: 1, amount: -5, transactionType: 'wallet_recharge' }, 'Amount must be greater than 0'],
    [{ userId: 1, amount: 1.005, transactionType: 'wallet_recharge' }, 'Amount must have at most 2 decimals'],
    [{ userId: 1, amount: 'ten', transactionType: 'wallet_recharge' }, 'Amount must be a number'],
    [{ userId: 1, amount: 1e12, transactionType: 'wallet_recharge' }, 'Amount must not exceed'],
    [{ userId: 1, amount: 5, transactionType: 'bonus' }, 'transactionType must be wallet_recharge or wallet_withdrawal'],
  ])('answers 400 for %j', async (payload, message) => {
    const res = await recharge(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(message);
  });

  it('refuses an amount a hair off a whole paisa with 400, on a member\u2019s wallet and a withdrawal request (it answered 500)', async () => {
    const userId = await newMember(suite.t.database);
    await recharge({ userId, amount: 500, transactionType: 'wallet_recharge' });
    for (const amount of [100.000000005, 9999.999999995, 1e-9, 5e-9]) {
      for (const res of [
        await recharge({ userId, amount, transactionType: 'wallet_recharge' }),
        await recharge({ userId, amount, transactionType: 'wallet_withdrawal' }),
        await suite.t.app.inject({ method: 'POST', url: '/api/wallet/withdrawal', headers: moneyHeaders(suite.token), payload: { userId, amount } }),
      ]) {
        expect(res.statusCode, String(amount)).toBe(400);
        expect(res.json()).toMatchObject({ success: false, message: 'Amount must have at most 2 decimals' });
      }
    }
    expect(await balanceOf(suite.t.database, userId)).toBe(50000);
  });

  it('answers 404 for an unknown member, 401 without a token and 403 without wallet_manage', async () => {
    expect((await recharge({ userId: 999999999, amount: 5, transactionType: 'wallet_recharge' })).statusCode).toBe(404);
    const anonymous = await suite.t.app.inject({ method: 'POST', url: '/api/wallets/userWalletRecharge', payload: {} });
    expect(anonymous.statusCode).toBe(401);
    const weak = await recharge({ userId: 1, amount: 5, transactionType: 'wallet_recharge' }, moneyHeaders(await tokenWithoutPermissions(suite.t)));
    expect(weak.statusCode).toBe(403);
  });
});

describe('Idempotency-Key', () => {
  it('replays the first answer for a retry and writes nothing more', async () => {
    const userId = await newMember(suite.t.database);
    const headers = moneyHeaders(suite.token, 'retry-key-0001');
    const first = await recharge({ userId, amount: 40, transactionType: 'wallet_recharge' }, headers);
    const second = await recharge({ transactionType: 'wallet_recharge', amount: 40, userId }, headers);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(await balanceOf(suite.t.database, userId)).toBe(4000);
  });

  it('refuses the same key with another body with 422, and a malformed key with 400', async () => {
    const userId = await newMember(suite.t.database);
    const headers = moneyHeaders(suite.token, 'reused-key-0001');
    await recharge({ userId, amount: 40, transactionType: 'wallet_recharge' }, headers);
    const other = await recharge({ userId, amount: 41, transactionType: 'wallet_recharge' }, headers);
    expect(other.statusCode).toBe(422);
    expect(other.json().message).toMatch(/already used for a different request/);
    const bad = await recharge({ userId, amount: 1, transactionType: 'wallet_recharge' }, moneyHeaders(suite.token, 'short'));
    expect(bad.statusCode).toBe(400);
    expect(await balanceOf(suite.t.database, userId)).toBe(4000);
  });

  it('remembers a refusal: the retry gets the same 400', async () => {
    const userId = await newMember(suite.t.database);
    const headers = moneyHeaders(suite.token, 'refused-key-0001');
    const first = await recharge({ userId, amount: 5, transactionType: 'wallet_withdrawal' }, headers);
    await recharge({ userId, amount: 10, transactionType: 'wallet_recharge' });
    const retry = await recharge({ userId, amount: 5, transactionType: 'wallet_withdrawal' }, headers);
    expect(first.statusCode).toBe(400);
    expect(retry.statusCode).toBe(400);
    expect(retry.json()).toEqual(first.json());
    expect(await balanceOf(suite.t.database, userId)).toBe(1000);
  });

  it('keys are per account: another account may use the same key', async () => {
    const userId = await newMember(suite.t.database);
    await recharge({ userId, amount: 1, transactionType: 'wallet_recharge' }, moneyHeaders(suite.token, 'shared-key-0001'));
    const [admin] = await suite.t.database.query<{ user_id: number }>(`select user_id from users where email = 'admin@test.local'`);
    const rows = await suite.t.database.query('select actor_id from idempotency_keys where key = $1', ['shared-key-0001']);
    expect(rows).toHaveLength(1);
    expect(Number((rows[0] as { actor_id: number }).actor_id)).toBe(Number(admin.user_id));
  });
});

describe('concurrency', () => {
  it('50 parallel withdrawals against a wallet that affords 17: exactly 17 succeed, nothing negative, nothing lost', async () => {
    const userId = await newMember(suite.t.database);
    await recharge({ userId, amount: 170, transactionType: 'wallet_recharge' });
    const results = await Promise.all(Array.from({ length: 50 }, () =>
      recharge({ userId, amount: 10, transactionType: 'wallet_withdrawal' })));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(17);
    expect(codes.filter((c) => c === 400)).toHaveLength(33);
    expect(await balanceOf(suite.t.database, userId)).toBe(0);
    const [n] = await suite.t.database.query<{ n: number }>(
      `select count(*)::int as n from ledger_entries where user_id = $1 and kind = 'wallet_withdrawal'`, [userId]);
    expect(n.n).toBe(17);
  });

  it('the database itself refuses a negative balance (CHECK constraint)', async () => {
    const userId = await newMember(suite.t.database);
    await expect(suite.t.database.query('update users set balance_paise = -1 where user_id = $1', [userId])).rejects.toThrow(/users_balance_not_negative/);
  });
});

describe('GET /api/users/walletHistory', () => {
  it('lists recharges and withdrawals newest first with the spec fields and a total', async () => {
    const userId = await newMember(suite.t.database, 'History Person');
    await recharge({ userId, amount: 30, transactionType: 'wallet_recharge' });
    await recharge({ userId, amount: 12.5, transactionType: 'wallet_withdrawal' });
    const res = await suite.t.app.inject({ method: 'GET', url: '/api/users/walletHistory?transactionType=wallet_recharge&limit=2', headers: bearer(suite.token) });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data).toHaveLength(2);
    expect(body.data[0]).toEqual({
      id: expect.any(Number), userId, userName: 'History Person', fullName: 'History Person', amount: 12.5,
      dateTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), transactionType: 'wallet_withdrawal', type: 'debit',
    });
    expect(body.data[1]).toMatchObject({ userId, amount: 30, transactionType: 'wallet_recharge' });
    const [count] = await suite.t.database.query<{ n: number }>(
      `select count(*)::int as n from ledger_entries where kind in ('wallet_recharge', 'wallet_withdrawal')`);
    expect(body).toMatchObject({ total: count.n, page: 1, limit: 2 });
    const page2 = await suite.t.app.inject({ method: 'GET', url: '/api/users/walletHistory?transactionType=wallet_recharge&limit=2&page=2', headers: bearer(suite.token) });
    expect(page2.json().data[0].id).not.toBe(body.data[0].id);
  });

  it('gives one member\'s ledger in the dailyPayout form the Membership screen reads', async () => {
    const userId = await newMember(suite.t.database, 'Ledger Person');
    await recharge({ userId, amount: 80, transactionType: 'wallet_recharge' });
    await recharge({ userId, amount: 20, transactionType: 'wallet_withdrawal' });
    const res = await suite.t.app.inject({ method: 'GET', url: `/api/users/walletHistory?transactionType=dailyPayout&userId=${userId}`, headers: bearer(suite.token) });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, user: { userId, fullName: 'Ledger Person', status: true }, currentAmount: 60, total: 2 });
    expect(body.user).toHaveProperty('email');
    expect(body.user).toHaveProperty('phone');
    expect(body.history[0]).toEqual({
      id: expect.any(Number), userId, amount: 20, type: 'debit', transactionType: 'wallet_withdrawal',
      description: 'Wallet withdrawal by administrator', date: expect.any(String), transactionId: body.history[0].id,
    });
    expect(body.history[1]).toMatchObject({ amount: 80, type: 'credit', transactionType: 'wallet_recharge' });
  });

  it('validates its query and answers 404, 401 and 403', async () => {
    const get = (url: string, headers = bearer(suite.token)) => suite.t.app.inject({ method: 'GET', url, headers });
    expect((await get('/api/users/walletHistory')).statusCode).toBe(400);
    expect((await get('/api/users/walletHistory?transactionType=bogus')).json().message).toContain('transactionType must be wallet_recharge or dailyPayout');
    expect((await get('/api/users/walletHistory?transactionType=dailyPayout')).json().message).toContain('userId is required');
    expect((await get('/api/users/walletHistory?transactionType=dailyPayout&userId=999999999')).statusCode).toBe(404);
    expect((await get('/api/users/walletHistory?transactionType=wallet_recharge&limit=0')).statusCode).toBe(400);
    expect((await suite.t.app.inject({ method: 'GET', url: '/api/users/walletHistory?transactionType=wallet_recharge' })).statusCode).toBe(401);
    expect((await get('/api/users/walletHistory?transactionType=wallet_recharge', bearer(await tokenWithoutPermissions(suite.t)))).statusCode).toBe(403);
  });

  it('streams the whole list as CSV, in keyset batches that lose and repeat nothing (even rows with one timestamp)', async () => {
    const userId = await newMember(suite.t.database, 'Bulk Person');
    await suite.t.database.query(`
      insert into ledger_entries (user_id, kind, amount_paise, description, created_at, transfer_id)
      select $1, 'wallet_recharge', 100, 'bulk', timestamptz '2024-01-01 10:00+05:30', nextval(pg_get_serial_sequence('transfers', 'id')) from generate_series(1, 2100)`, [userId]);
    await bookHistory(suite.t.database.db);
    await suite.t.database.query('update users set balance_paise = 210000 where user_id = $1', [userId]);
    const res = await suite.t.app.inject({ method: 'GET', url: '/api/users/walletHistory.csv', headers: bearer(suite.token) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/csv/);
    const lines = res.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('ID,User ID,User,Full Name,Type,Amount,Date & Time (IST)');
    const [count] = await suite.t.database.query<{ n: number }>(
      `select count(*)::int as n from ledger_entries where kind in ('wallet_recharge', 'wallet_withdrawal')`);
    expect(lines).toHaveLength(count.n + 1);
    expect(new Set(lines.slice(1).map((l) => l.split(',')[0])).size).toBe(count.n);
  });
});

describe('wallet balance, balances, summary, transactions', () => {
  it('answers each with the spec shape, 404 for unknown ids', async () => {
    const userId = await newMember(suite.t.database, 'Balance Person');
    const up = await recharge({ userId, amount: 99.99, transactionType: 'wallet_recharge' });
    const get = (url: string) => suite.t.app.inject({ method: 'GET', url, headers: bearer(suite.token) });
    expect((await get(`/api/wallet/balance/${userId}`)).json()).toEqual({ success: true, data: { userId, balance: 99.99 } });
    expect((await get('/api/wallet/balance/999999999')).statusCode).toBe(404);
    expect((await get('/api/wallet/balance/abc')).statusCode).toBe(400);
    const balances = (await get('/api/wallet/balances?userName=Balance%20Person')).json();
    expect(balances).toMatchObject({ success: true, total: 1, data: [{ userId, balance: 99.99, fullName: 'Balance Person' }] });
    // Staff hold no wallet (issue 24): the balances list and its total are members only, by name too.
    const staff = await suite.t.database.query<{ user_id: string; full_name: string }>(
      'select user_id::text, full_name from users where can_sign_in and deleted_at is null');
    expect(staff.length).toBeGreaterThan(0);
    const all = (await get('/api/wallet/balances?limit=100')).json();
    const [members] = await suite.t.database.query<{ n: number }>('select count(*)::int as n from users where not can_sign_in and deleted_at is null');
    expect(all.total).toBe(members.n);
    expect(all.data.map((b: { userId: number }) => b.userId)).not.toEqual(expect.arrayContaining(staff.map((s) => Number(s.user_id))));
    const byStaffName = (await get(`/api/wallet/balances?userName=${encodeURIComponent(staff[0].full_name)}`)).json();
    expect(byStaffName.data.map((b: { userId: number }) => b.userId)).not.toContain(Number(staff[0].user_id));
    const summary = (await get('/api/wallet/summary')).json();
    const [sum] = await suite.t.database.query<{ s: string }>('select sum(balance_paise)::text as s from users');
    expect(summary.data.totalBalance).toBe(Number(sum.s) / 100);
    const mine = (await get(`/api/wallet/summary/${userId}`)).json();
    expect(mine.data).toMatchObject({ userId, balance: 99.99, totalCredits: 99.99, totalDebits: 0, transactions: 1 });
    expect((await get('/api/wallet/summary/999999999')).statusCode).toBe(404);
    const tx = (await get(`/api/wallet/transactions/${up.json().data.transactionId}`)).json();
    expect(tx.data).toMatchObject({ userId, amount: 99.99, type: 'credit', transactionType: 'wallet_recharge' });
    expect((await get('/api/wallet/transactions/999999999')).statusCode).toBe(404);
  });
});

describe('withdrawal requests', () => {
  // Who filed a request cannot decide it (issue 13, four eyes): a second operator decides.
  let decider: string;
  beforeAll(async () => {
    decider = await accountWithPermissions(suite.t.database, ['wallet_manage', 'wallet_view']);
  });
  const request = (payload: Record<string, unknown>) =>
    suite.t.app.inject({ method: 'POST', url: '/api/wallet/withdrawal', headers: moneyHeaders(suite.token), payload });
  const decide = (id: number, payload: Record<string, unknown>) =>
    suite.t.app.inject({ method: 'PUT', url: `/api/wallet/withdrawals/${id}`, headers: moneyHeaders(decider), payload });

  it('approval debits the wallet once; a second decision is 409; rejection moves nothing', async () => {
    const userId = await newMember(suite.t.database);
    await recharge({ userId, amount: 100, transactionType: 'wallet_recharge' });
    const created = await request({ userId, amount: 60, remarks: 'to bank' });
    expect(created.statusCode).toBe(201);
    expect(created.json().data).toMatchObject({ userId, amount: 60, status: 'pending', transactionId: null });
    const id = created.json().data.id;
    const approved = await decide(id, { status: 'approved', remarks: 'paid out' });
    expect(approved.json()).toMatchObject({ success: true, message: 'Withdrawal approved', data: { status: 'approved', remarks: 'paid out' } });
    expect(approved.json().data.transactionId).toEqual(expect.any(Number));
    expect(await balanceOf(suite.t.database, userId)).toBe(4000);
    const again = await decide(id, { status: 'rejected' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(`Withdrawal request ${id} has already been approved`);

    const second = (await request({ userId, amount: 40 })).json().data.id;
    const rejected = await decide(second, { status: 'rejected', remarks: 'bank details missing' });
    expect(rejected.json().data).toMatchObject({ status: 'rejected', transactionId: null, remarks: 'bank details missing' });
    expect(await balanceOf(suite.t.database, userId)).toBe(4000);
    const list = await suite.t.app.inject({ method: 'GET', url: '/api/wallet/withdrawals?status=rejected', headers: bearer(suite.token) });
    expect(list.json().data.map((w: { id: number }) => w.id)).toContain(second);
  });

  it('refuses a request above the balance, and an approval the balance no longer covers (it stays pending)', async () => {
    const userId = await newMember(suite.t.database);
    await recharge({ userId, amount: 50, transactionType: 'wallet_recharge' });
    expect((await request({ userId, amount: 50.01 })).statusCode).toBe(400);
    const a = (await request({ userId, amount: 30 })).json().data.id;
    const b = (await request({ userId, amount: 30 })).json().data.id;
    expect((await decide(a, { status: 'approved' })).statusCode).toBe(200);
    const refused = await decide(b, { status: 'approved' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/Insufficient wallet balance/);
    const [row] = await suite.t.database.query<{ status: string }>('select status from withdrawal_requests where id = $1', [b]);
    expect(row.status).toBe('pending');
    expect((await decide(999999, { status: 'approved' })).statusCode).toBe(404);
    expect((await decide(b, { status: 'maybe' })).statusCode).toBe(400);
  });
});
