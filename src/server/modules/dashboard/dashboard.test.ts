import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestContext } from '../../test/harness.ts';

let t: TestContext;
let token: string;
beforeAll(async () => {
  t = await createTestApp({ members: 120 });
  token = await t.login();
});
afterAll(() => t.close());

async function countsFromTables() {
  const [row] = await t.database.query<Record<string, number>>(`select
      (select count(*)::int from users where deleted_at is null and not can_sign_in) as total,
      (select count(*)::int from users where deleted_at is null and not can_sign_in and status) as active,
      (select count(*)::int from users where deleted_at is null and not can_sign_in and not status) as inactive,
      (select count(*)::int from memberships m join users u using (user_id) where u.deleted_at is null and not u.can_sign_in) as members`);
  return { totalUsers: row.total, activeUsers: row.active, inactiveUsers: row.inactive, membershipUsers: row.members };
}

const stats = async () =>
  (await t.app.inject({ method: 'GET', url: '/api/users/getAllUser', headers: bearer(token) })).json();

describe('GET /api/users/getAllUser', () => {
  it('returns the four statistics, equal to counting the tables', async () => {
    const body = await stats();
    expect(body.success).toBe(true);
    expect(body.data).toEqual(await countsFromTables());
    expect(body.data.totalUsers).toBe(120); // 120 demo members; the administrator is staff, not a member
  });

  it('keeps the counters right through deactivation, soft delete and a new membership', async () => {
    const [a, b, c] = await t.database.query<{ user_id: number }>(
      `select user_id from users where status and deleted_at is null and user_id not in (select user_id from memberships) and password_hash is null order by user_id limit 3`,
    );
    await t.database.query('update users set status = false where user_id = $1', [a.user_id]);
    await t.database.query('update users set deleted_at = now() where user_id = $1', [b.user_id]);
    await t.database.query('insert into memberships (user_id, amount_paise) values ($1, 99900)', [c.user_id]);
    await t.database.query(`update users set deleted_at = now() where user_id = (select user_id from memberships order by id limit 1)`);
    expect((await stats()).data).toEqual(await countsFromTables());
  });

  it('needs a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/users/getAllUser' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ success: false, message: 'Authentication required. Please sign in.' });
  });
});

describe('GET /api/dashboard/charts', () => {
  it('gives 30 days of new members, revenue and payouts, equal to aggregating the raw rows', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/dashboard/charts', headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    const days = res.json().data.days as { date: string; newMembers: number; revenue: number; payoutsSuccess: number; payoutsFailure: number }[];
    expect(days).toHaveLength(30);
    const [raw] = await t.database.query<Record<string, number>>(`
      with since as (select ((now() at time zone 'Asia/Kolkata')::date - 29) as d)
      select
        (select count(*)::int from users, since where not can_sign_in and (created_at at time zone 'Asia/Kolkata')::date >= since.d) as members,
        (select coalesce(-sum(amount_paise), 0)::int8 from ledger_entries, since
          where kind = 'membership_fee' and (created_at at time zone 'Asia/Kolkata')::date >= since.d) as revenue_paise,
        (select count(*)::int from daily_payouts, since where payout_date >= since.d and status = 'Success') as ok,
        (select count(*)::int from daily_payouts, since where payout_date >= since.d and status = 'Failure') as failed`);
    const sum = (key: keyof (typeof days)[number]) => days.reduce((a, d) => a + (d[key] as number), 0);
    expect(sum('newMembers')).toBe(raw.members);
    expect(Math.round(sum('revenue') * 100)).toBe(Number(raw.revenue_paise));
    expect(sum('payoutsSuccess')).toBe(raw.ok);
    expect(sum('payoutsFailure')).toBe(raw.failed);
    expect(raw.ok + raw.failed).toBeGreaterThan(0);
    expect(days[29].date).toBe(new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date()));
  });

  it('validates the number of days', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/dashboard/charts?days=1000', headers: bearer(token) });
    expect(res.statusCode).toBe(400);
  });
});
