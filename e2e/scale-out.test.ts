import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { READY_ROLES } from '../src/contract/permissions.ts';
import { nginxPath, startNginx } from './support/nginx.ts';
import { createPostgresDatabase, E2E_ADMIN, freePort, startServer, type RunningServer } from './support/server.ts';

// Two server copies on one PostgreSQL database behind nginx (round robin): nothing that one copy
// needs may live only in the other's memory.
const ready = !!process.env.TEST_DATABASE_URL && !!nginxPath;
if (!ready) {
  const why = !process.env.TEST_DATABASE_URL ? 'TEST_DATABASE_URL is not set' : 'nginx is not installed';
  const message = `SCALE-OUT TEST SKIPPED: ${why}; the two-copy test did not run.`;
  if (process.env.CI) throw new Error(`${message} CI must run it.`);
  console.warn(`\n*** ${message} ***\n`);
}

const MIGRATIONS = JSON.parse(
  fs.readFileSync(path.resolve(import.meta.dirname, '../drizzle/meta/_journal.json'), 'utf8'),
).entries.length as number;

describe.skipIf(!ready)('two API servers behind nginx on one PostgreSQL', () => {
  let database: { url: string; drop: () => Promise<void> };
  let a: RunningServer;
  let b: RunningServer;
  let lb: Awaited<ReturnType<typeof startNginx>>;
  let sql: pg.Client;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    // Both copies start at the same moment on the empty database.
    const env = { TRUST_PROXY: '1', SEED_MEMBERS: '40' };
    [a, b] = await Promise.all([
      startServer({ databaseUrl: database.url, env, noWait: true }),
      startServer({ databaseUrl: database.url, env, noWait: true }),
    ]);
    await Promise.all([a.healthy(), b.healthy()]);
    lb = await startNginx(await freePort(), [a.port, b.port]);
    sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
  });
  afterAll(async () => {
    await sql?.end();
    await lb?.stop();
    await a?.cleanUp();
    await b?.cleanUp();
    await database?.drop();
  });

  const call = async <Data = Record<string, unknown>>(base: string, method: string, url: string, token?: string, body?: unknown, key?: string) => {
    const res = await fetch(`${base}/api${url}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...(key ? { 'idempotency-key': key } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as { success: boolean; message: string; data: Data } };
  };
  const login = async (base: string, email = E2E_ADMIN.email, password = E2E_ADMIN.password) =>
    call(base, 'POST', '/Adminlogin', undefined, { email, password });

  it('migrated and bootstrapped exactly once when both started together', async () => {
    const { rows: migrations } = await sql.query('select count(*)::int as n from drizzle.__drizzle_migrations');
    expect(migrations[0].n).toBe(MIGRATIONS);
    const { rows } = await sql.query(
      `select (select count(*)::int from roles) as roles, (select count(*)::int from users) as users,
              (select count(*)::int from permissions) as permissions`,
    );
    // Admin, User and the ready roles (issue 24), once; 40 demo members + one administrator.
    expect(rows[0]).toMatchObject({ roles: 2 + READY_ROLES.length, users: 41 });
    for (const copy of [a, b]) expect((await call(copy.url, 'GET', '/health')).status).toBe(200);
  });

  it('a token issued by one copy works on the other, and logout on one is refused on the other at once', async () => {
    const { body } = await login(a.url);
    const token = body.data.token as string;
    expect((await call(b.url, 'GET', '/users/getAllUser', token)).status).toBe(200);
    for (let i = 0; i < 6; i++) expect((await call(lb.url, 'GET', '/users/me', token)).status).toBe(200);
    expect((await call(b.url, 'POST', '/users/logout', token)).status).toBe(200);
    expect((await call(a.url, 'GET', '/users/getAllUser', token)).status).toBe(401);
    expect((await call(lb.url, 'GET', '/users/me', token)).status).toBe(401);
  });

  it('counts failed sign-ins across both copies', async () => {
    const email = 'target@test.local';
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await login(i % 2 ? b.url : a.url, email, 'wrong')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await login(lb.url, email, 'wrong')).status).toBe(429);
  });

  it('takes the client address from the balancer, not from a forged X-Forwarded-For', async () => {
    await fetch(`${lb.url}/api/Adminlogin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9' },
      body: JSON.stringify({ email: 'nobody@test.local', password: 'wrong' }),
    });
    const { rows } = await sql.query(`select key from login_failures where key like 'login-ip:%' order by id desc limit 1`);
    expect(rows[0].key).toBe('login-ip:127.0.0.1');
  });

  const adminToken = async () => (await login(a.url)).body.data.token as string;
  const balance = async (userId: number) =>
    Number((await sql.query('select balance_paise from users where user_id = $1', [userId])).rows[0].balance_paise);
  const ledgerRows = async (userId: number) =>
    Number((await sql.query('select count(*)::int as n from ledger_entries where user_id = $1', [userId])).rows[0].n);

  it('pays once when one Idempotency-Key reaches both copies at the same moment', async () => {
    const token = await adminToken();
    const { rows } = await sql.query('select user_id from users where password_hash is null order by user_id limit 1');
    const userId = Number(rows[0].user_id);
    const [before, rowsBefore] = [await balance(userId), await ledgerRows(userId)];
    const body = { userId, amount: 123.45, typeIncome: 'wallet recharge' };
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => call([a.url, b.url, lb.url][i % 3], 'POST', '/transferAdmin', token, body, 'scale-out-key-1')),
    );
    expect(answers.every((r) => r.status === 200)).toBe(true);
    expect(new Set(answers.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(await balance(userId)).toBe(before + 12345);
    expect(await ledgerRows(userId)).toBe(rowsBefore + 1);
  });

  it('never takes a balance below zero with 50 withdrawals split across both copies', async () => {
    const token = await adminToken();
    const { rows } = await sql.query('select user_id from users where password_hash is null order by user_id desc limit 1');
    const userId = Number(rows[0].user_id);
    const start = await balance(userId);
    const rowsBefore = await ledgerRows(userId);
    // About 20 of the 50 can be paid; at most ₹10,000 each, so none waits for a second operator (issue 13).
    const amount = Math.min(10_000, Math.max(1, Math.floor(start / 100 / 20)));
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        // Each its own key: 50 withdrawals meant, not one sent 50 times (a keyless twin within a minute is a duplicate, issue 22).
        call(i % 2 ? a.url : b.url, 'POST', '/wallets/userWalletRecharge', token, { userId, amount, transactionType: 'wallet_withdrawal' }, `scale-out-withdrawal-${Date.now()}-${i}`),
      ),
    );
    const accepted = answers.filter((r) => r.status === 200).length;
    expect(accepted + answers.filter((r) => r.status === 400).length).toBe(50);
    expect(accepted).toBe(Math.min(50, Math.floor(start / (amount * 100))));
    const end = await balance(userId);
    expect(end).toBe(start - accepted * amount * 100);
    expect(end).toBeGreaterThanOrEqual(0);
    expect(await ledgerRows(userId)).toBe(rowsBefore + accepted);
    const { rows: sums } = await sql.query('select coalesce(sum(amount_paise), 0)::int8 as s from ledger_entries where user_id = $1', [userId]);
    expect(Number(sums[0].s)).toBe(end);
  });

  it('a role-permission change made through one copy changes what the other allows on the next request', async () => {
    const token = await adminToken();
    const role = await call(a.url, 'POST', '/CreateRoles', token, { name: 'Scale Viewer', status: true });
    expect(role.status).toBe(201);
    const roleId = role.body.data.roleId as number;
    const perms = await call<{ permissionId: number; name: string }[]>(b.url, 'GET', '/permissions/getPermissions', token);
    const dashboard = perms.body.data.find((p) => p.name === 'dashboard_view')!;
    const users = perms.body.data.find((p) => p.name === 'users_view')!;
    const reg = await call(lb.url, 'POST', '/register', undefined, {
      name: 'scaleviewer', fullName: 'Scale Viewer', email: 'scale-viewer@test.local', phone: '9111111111', address: 'Pune', password: 'viewer-password',
    });
    expect(reg.status).toBe(201);
    // The registration's mailed link is not followed here: the test confirms it in the database (issue 22).
    await sql.query('update users set role_id = $1, unconfirmed = false where email = $2', [roleId, 'scale-viewer@test.local']);
    const viewer = (await login(b.url, 'scale-viewer@test.local', 'viewer-password')).body.data.token as string;
    expect((await call(b.url, 'GET', '/users/getAllUser', viewer)).status).toBe(403);

    const created = await call(a.url, 'POST', '/role-permissions/createPermissionForRole', token, {
      roleId, permissionIds: [dashboard.permissionId], status: true,
    });
    expect(created.status).toBe(201);
    expect((await call(b.url, 'GET', '/users/getAllUser', viewer)).status).toBe(200);

    const changed = await call(b.url, 'PUT', `/role-permissions/updatePermissionForRole/${roleId}`, token, { permissionIds: [users.permissionId] });
    expect(changed.status).toBe(200);
    expect((await call(a.url, 'GET', '/users/getAllUser', viewer)).status).toBe(403);
  });
});
