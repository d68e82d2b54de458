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
      (select count(*)::int from users where deleted_at is null) as total,
      (select count(*)::int from users where deleted_at is null and status) as active,
      (select count(*)::int from users where deleted_at is null and not status) as inactive,
      (select count(*)::int from memberships m join users u using (user_id) where u.deleted_at is null) as members`);
  return { totalUsers: row.total, activeUsers: row.active, inactiveUsers: row.inactive, membershipUsers: row.members };
}

const stats = async () =>
  (await t.app.inject({ method: 'GET', url: '/api/users/getAllUser', headers: bearer(token) })).json();

describe('GET /api/users/getAllUser', () => {
  it('returns the four statistics, equal to counting the tables', async () => {
    const body = await stats();
    expect(body.success).toBe(true);
    expect(body.data).toEqual(await countsFromTables());
    expect(body.data.totalUsers).toBe(121); // 120 demo members and the administrator
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
