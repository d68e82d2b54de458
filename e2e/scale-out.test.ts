import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
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

  const call = async (base: string, method: string, url: string, token?: string, body?: unknown) => {
    const res = await fetch(`${base}/api${url}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
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
    expect(rows[0]).toMatchObject({ roles: 2, users: 41 }); // 40 demo members + one administrator
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
    const { rows } = await sql.query(`select key from login_failures where key like 'ip:%' order by id desc limit 1`);
    expect(rows[0].key).toBe('ip:127.0.0.1');
  });
});
