import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, caller, createTestApp, plainAccount, type TestContext } from '../../test/harness.ts';
import { membersBatch, type MembershipKeyset } from './membership.repository.ts';

let t: TestContext;
let admin: Record<string, string>;
let noPermission: Record<string, string>;
const ids: number[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = bearer(await t.login());
  noPermission = await plainAccount(t);
  // Memberships taken at fixed instants: 10 Mar 2026 23:30 IST is still 10 March in India (18:00 UTC).
  const times = ['2026-03-01T04:00:00Z', '2026-03-10T18:00:00Z', '2026-03-10T18:45:00Z', '2026-04-02T06:00:00Z'];
  for (const [i, at] of times.entries()) {
    const res = await caller(t, admin)('POST', '/api/users/register', {
      fullName: `Member ${i}`, dob: '1990-01-01', email: `m${i}@test.local`, phone: `95000000${String(i).padStart(2, '0')}`,
    });
    const userId = res.json().user.userId;
    ids.push(userId);
    await t.database.query('insert into memberships (user_id, amount_paise, created_at) values ($1, $2, $3)', [userId, 99950 + i, at]);
  }
});
afterAll(() => t.close());

const get = (url: string, headers = admin) => caller(t, headers)('GET', url);
const userIds = (body: { data: { userId: number }[] }) => body.data.map((m) => m.userId);
const csvOf = (body: string) => body.replace(/^\uFEFF/, '').trim().split('\r\n');

describe('GET /api/users/membership', () => {
  it('lists members newest first with the member-view fields and amounts in rupees', async () => {
    const res = await get('/api/users/membership');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, total: 4, page: 1, limit: 25 });
    expect(userIds(body)).toEqual([ids[3], ids[2], ids[1], ids[0]]);
    expect(body.data[3]).toMatchObject({
      _id: String(ids[0]), id: ids[0], userId: ids[0], fullName: 'Member 0', name: 'Member 0', email: 'm0@test.local', status: true,
      amount: 999.5, currentAmount: 0, dateTime: '2026-03-01T04:00:00.000Z',
      planName: null, membershipStatus: 'legacy', earned: 0, dailyAmount: 0,
    });
  });

  it('shows what the income engine did: the plan, the status, earned and the daily amount', async () => {
    const [plan] = await t.database.query<{ plan_id: number }>(`insert into membership_plans (name) values ('Gold Plan') returning plan_id`);
    await t.database.query(
      `update memberships set plan_id = $1, status = 'active', daily_paise = 1500, cap_paise = 200000, earned_paise = 4500,
              duration_days = 100, days_earned = 3 where user_id = $2`, [plan.plan_id, ids[2]]);
    const body = (await get('/api/users/membership')).json();
    expect(body.data.find((m: { userId: number }) => m.userId === ids[2])).toMatchObject({
      planName: 'Gold Plan', membershipStatus: 'active', earned: 45, dailyAmount: 15,
    });
    await t.database.query(
      `update memberships set plan_id = null, status = 'legacy', daily_paise = 0, cap_paise = 0, earned_paise = 0, duration_days = 0,
              days_earned = 0 where user_id = $1`, [ids[2]]);
  });

  it('filters by inclusive dd-mm-yyyy days in India time', async () => {
    const body = (await get('/api/users/membership?fromDate=10-03-2026&toDate=10-03-2026')).json();
    expect(userIds(body)).toEqual([ids[1]]);
    expect(body.total).toBe(1);
    expect(userIds((await get('/api/users/membership?fromDate=11-03-2026')).json())).toEqual([ids[3], ids[2]]);
    expect(userIds((await get('/api/users/membership?toDate=31-03-2026')).json())).toEqual([ids[2], ids[1], ids[0]]);
    expect((await get('/api/users/membership?fromDate=01-01-2020&toDate=31-12-2020')).json()).toMatchObject({ data: [], total: 0 });
  });

  it('sorts by date, user id and amount in either direction', async () => {
    const order = async (sort: string) => userIds((await get(`/api/users/membership?sort=${sort}`)).json());
    expect(await order('dateTime')).toEqual([ids[0], ids[1], ids[2], ids[3]]);
    expect(await order('-userId')).toEqual([...ids].sort((a, b) => b - a));
    expect(await order('amount')).toEqual(ids);
    expect(await order('-amount')).toEqual([...ids].reverse());
    const paged = (await get('/api/users/membership?sort=amount&limit=2&page=2')).json();
    expect(userIds(paged)).toEqual([ids[2], ids[3]]);
    expect((await get('/api/users/membership?sort=fullName')).statusCode).toBe(400);
  });

  it('sorts by name (any case) and by current amount, the wallet balance now, in either direction, in the list and the CSV (issue 24)', async () => {
    const names = ['delta', 'Alpha', 'charlie', 'Bravo'];
    const paise = [5000, 120000, 0, 99];
    await t.database.query(`update users u set full_name = x.name, balance_paise = x.paise
      from unnest($1::int8[], $2::text[], $3::int8[]) as x(id, name, paise) where u.user_id = x.id`, [ids, names, paise]);
    const order = async (sort: string) => userIds((await get(`/api/users/membership?sort=${sort}`)).json());
    const byName = [ids[1], ids[3], ids[2], ids[0]];
    const byAmount = [ids[2], ids[3], ids[0], ids[1]];
    expect(await order('name')).toEqual(byName);
    expect(await order('-name')).toEqual([...byName].reverse());
    expect(await order('currentAmount')).toEqual(byAmount);
    expect(await order('-currentAmount')).toEqual([...byAmount].reverse());
    expect(userIds((await get('/api/users/membership?sort=-currentAmount&limit=1&page=2')).json())).toEqual([ids[0]]);
    expect((await get('/api/users/membership?sort=-currentAmount')).json().data[0]).toMatchObject({ userId: ids[1], currentAmount: 1200 });
    // The CSV walks the same order one keyset batch at a time (a batch of 1: every step crosses a cursor).
    for (const [sort, expected] of [['name', byName], ['-name', [...byName].reverse()], ['currentAmount', byAmount], ['-currentAmount', [...byAmount].reverse()]] as const) {
      const walked: number[] = [];
      let after: MembershipKeyset | null = null;
      do {
        const batch: Awaited<ReturnType<typeof membersBatch>> = await membersBatch(t.database, { sort: sort as 'name' }, after, 1);
        walked.push(...batch.rows.map((r) => r.userId));
        after = batch.next;
      } while (after);
      expect(walked, sort).toEqual(expected);
      const rows = csvOf((await get(`/api/users/membership.csv?sort=${sort}`)).body).slice(1);
      expect(rows.map((r) => Number(r.split(',')[0])), sort).toEqual(expected);
    }
    await t.database.query(`update users u set full_name = 'Member ' || (x.n - 1), balance_paise = 0
      from unnest($1::int8[]) with ordinality as x(id, n) where u.user_id = x.id`, [ids]);
  });

  it('leaves staff out: an account that signs in is not a member, whatever its memberships (issue 24)', async () => {
    await t.database.query('update users set can_sign_in = true where user_id = $1', [ids[0]]);
    const body = (await get('/api/users/membership?sort=name')).json();
    expect(userIds(body)).not.toContain(ids[0]);
    expect(body.total).toBe(3);
    expect(csvOf((await get('/api/users/membership.csv')).body).slice(1).map((r) => Number(r.split(',')[0]))).not.toContain(ids[0]);
    await t.database.query('update users set can_sign_in = false where user_id = $1', [ids[0]]);
    expect((await get('/api/users/membership')).json().total).toBe(4);
  });

  it('refuses bad dates and a reversed range with 400', async () => {
    for (const q of ['fromDate=2026-03-01', 'fromDate=31-02-2026', 'toDate=abc', 'fromDate=10-03-2026&toDate=01-03-2026']) {
      const res = await get(`/api/users/membership?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().success).toBe(false);
    }
  });

  it('leaves deleted members out and needs membership_view', async () => {
    await caller(t, admin)('DELETE', `/api/users/deleteByUserId/${ids[0]}`);
    const body = (await get('/api/users/membership')).json();
    expect(userIds(body)).not.toContain(ids[0]);
    expect(body.total).toBe(3);
    expect((await get('/api/users/membership', noPermission)).statusCode).toBe(403);
  });
});

describe('GET /api/users/membership.csv (issue 24)', () => {
  const csvLines = (body: string) => body.replace(/^\uFEFF/, '').trim().split('\r\n');

  it('exports the filtered list in its order, rupees, times in India time with their offset', async () => {
    const res = await get('/api/users/membership.csv?fromDate=10-03-2026&toDate=10-03-2026&sort=amount');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const [header, ...rows] = csvLines(res.body);
    expect(header).toBe('User ID,Name,Email,Phone,Status,Plan,Membership,Amount,Current Amount,Earned,Daily Amount,Date & Time (IST)');
    expect(rows.map((r) => Number(r.split(',')[0]))).toEqual([ids[1]]);
    // 18:00 UTC is 23:30 the same day in India.
    expect(rows[0].split(',')).toEqual(expect.arrayContaining(['Member 1', 'Active', '999.51', '2026-03-10T23:30:00+05:30']));
  });

  it('returns every row once across keyset batches, in each order', async () => {
    for (const sort of ['-dateTime', 'userId', '-amount']) {
      const all = (await get(`/api/users/membership?limit=100&sort=${sort}`)).json();
      const rows = csvLines((await get(`/api/users/membership.csv?sort=${sort}`)).body).slice(1);
      expect(rows.map((r) => Number(r.split(',')[0]))).toEqual(userIds(all));
    }
  });

  it('needs membership_view and refuses a reversed range', async () => {
    expect((await get('/api/users/membership.csv', noPermission)).statusCode).toBe(403);
    const bad = await get('/api/users/membership.csv?fromDate=02-04-2026&toDate=01-04-2026');
    expect(bad.statusCode).toBe(400);
  });
});
