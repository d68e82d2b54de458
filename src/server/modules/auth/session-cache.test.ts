import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { openPostgres, type Database } from '../../db/client.ts';
import { bearer, createTestApp, testDbKind, type TestContext } from '../../test/harness.ts';
import { accountWithPermissions } from '../../test/accounts.ts';
import { hashToken } from '../../lib/tokens.ts';

// Issue 23: a read costs no round trip for its session, and a change to what a session may do
// still applies on the very next request on every server copy. Two copies here: two apps on one
// database (on PostgreSQL each with its own pool and listening connection).
const config = { ...loadConfig({}), webDir: '/nonexistent', serverTiming: true };

let t: TestContext;
let second: Database;
let a: FastifyInstance;
let b: FastifyInstance;
let admin: string;

beforeAll(async () => {
  t = await createTestApp({ config: { serverTiming: true } });
  a = t.app;
  if (testDbKind === 'postgres') {
    const [{ name }] = await t.database.query<{ name: string }>('select current_database() as name');
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    second = await openPostgres(url.toString(), 3);
  } else {
    second = t.database; // one embedded database in this process, two apps on it
  }
  // The second copy hears every announcement 300 ms late (a busy copy): a change must still apply
  // on it at once, because the copy that made the change waits until every copy has applied it.
  const slow: Database = {
    ...second,
    listen: (channel, onNotice, onLost) => second.listen(channel, (payload) => void setTimeout(() => onNotice(payload), 300), onLost),
  };
  b = await buildApp({ config, database: slow });
  await b.ready();
  admin = await t.login();
}, 120_000);

afterAll(async () => {
  await b?.close();
  if (second && second !== t.database) await second.close();
  await t?.close();
});

const call = async (app: FastifyInstance, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: object) => {
  const res = await app.inject({ method, url: `/api${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });
  const timing = String(res.headers['server-timing'] ?? '');
  return { status: res.statusCode, body: res.json(), queries: Number(/"(\d+) queries"/.exec(timing)?.[1] ?? NaN) };
};

/** A signed-in account whose role holds `permissions`; `ids` names permissions by their ids. */
async function viewer(permissions: string[]) {
  const token = await accountWithPermissions(t.database, permissions);
  const [{ roleId }] = await t.database.query<{ roleId: number }>(
    `select u.role_id as "roleId" from sessions s join users u on u.user_id = s.user_id where s.token_hash = $1`,
    [hashToken(token)],
  );
  const all = (await call(a, 'GET', '/permissions/getPermissions', admin)).body.data as { permissionId: number; name: string }[];
  const ids = (names: string[]) => names.map((n) => all.find((p) => p.name === n)!.permissionId);
  return { roleId, ids, token };
}

describe('the session cache', () => {
  it('answers a repeated read without a session query', async () => {
    const first = await call(a, 'GET', '/users/getAllUser', admin);
    const again = await call(a, 'GET', '/users/getAllUser', admin);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.queries).toBe(first.queries - 1);
    // The other copy reads the session once, then serves from its own cache.
    const onB = await call(b, 'GET', '/users/getAllUser', admin);
    expect(onB.queries).toBe(first.queries);
    expect((await call(b, 'GET', '/users/getAllUser', admin)).queries).toBe(again.queries);
  });

  it('applies a permission change made on one copy to the very next request on the other', async () => {
    const v = await viewer(['dashboard_view']);
    for (const app of [a, b, a, b]) expect((await call(app, 'GET', '/users/getAllUser', v.token)).status).toBe(200);
    expect((await call(b, 'GET', '/users/getAllusers?page=1&limit=5', v.token)).status).toBe(403);

    expect((await call(a, 'PUT', `/role-permissions/updatePermissionForRole/${v.roleId}`, admin, { permissionIds: v.ids(['users_view']) })).status).toBe(200);
    expect((await call(b, 'GET', '/users/getAllUser', v.token)).status).toBe(403);
    expect((await call(b, 'GET', '/users/getAllusers?page=1&limit=5', v.token)).status).toBe(200);

    expect((await call(b, 'PUT', `/role-permissions/updatePermissionForRole/${v.roleId}`, admin, { permissionIds: v.ids(['dashboard_view']) })).status).toBe(200);
    expect((await call(a, 'GET', '/users/getAllusers?page=1&limit=5', v.token)).status).toBe(403);
    expect((await call(a, 'GET', '/users/getAllUser', v.token)).status).toBe(200);
  });

  it('refuses a session signed out on one copy on the other at once', async () => {
    const token = await t.login();
    expect((await call(b, 'GET', '/users/me', token)).status).toBe(200);
    expect((await call(a, 'POST', '/users/logout', token)).status).toBe(200);
    expect((await call(b, 'GET', '/users/me', token)).status).toBe(401);
  });

  it('20 sign-outs at once on one copy (their waits shared): each session is refused on the other copy as soon as its own answer came', async () => {
    const tokens: string[] = [];
    for (let i = 0; i < 20; i++) tokens.push(await accountWithPermissions(t.database, ['dashboard_view']));
    for (const token of tokens) expect((await call(b, 'GET', '/users/me', token)).status).toBe(200);
    await Promise.all(tokens.map(async (token) => {
      expect((await call(a, 'POST', '/users/logout', token)).status).toBe(200);
      expect((await call(b, 'GET', '/users/me', token)).status).toBe(401);
    }));
  });

  it('hears a change written to the database directly, without any copy', async () => {
    const v = await viewer(['dashboard_view']);
    expect((await call(b, 'GET', '/users/getAllUser', v.token)).status).toBe(200);
    await t.database.query('update role_permissions set status = false where role_id = $1', [v.roleId]);
    await expect.poll(async () => (await call(b, 'GET', '/users/getAllUser', v.token)).status, { timeout: 10_000 }).toBe(403);
    await t.database.query('update role_permissions set status = true where role_id = $1', [v.roleId]);
    await expect.poll(async () => (await call(a, 'GET', '/users/getAllUser', v.token)).status, { timeout: 10_000 }).toBe(200);
  });

  it('does not serve a cached session past its expiry', async () => {
    const token = await t.login();
    // Two seconds left, set before the cache reads it (the update announces itself; nothing after does).
    await t.database.query(`update sessions set expires_at = now() + interval '2 seconds' where token_hash = $1`, [hashToken(token)]);
    expect((await call(b, 'GET', '/users/me', token)).status).toBe(200);
    // Served from the cache once the update's own announcement has been heard.
    await expect.poll(async () => (await call(b, 'GET', '/users/me', token)).queries, { timeout: 10_000 }).toBe(0);
    await expect.poll(async () => (await call(b, 'GET', '/users/me', token)).status, { timeout: 10_000, interval: 200 }).toBe(401);
  });
});

describe('what announces an auth change', () => {
  it('a real change, once per transaction; not a balance update, a "last used" touch or a statement that changes no row', async () => {
    const heard: string[] = [];
    const stop = await t.database.listen('auth_changed', (payload) => heard.push(payload), () => {});
    try {
      const [{ userId }] = await t.database.query<{ userId: number }>('select user_id as "userId" from users where can_sign_in limit 1');
      await t.database.query('update users set balance_paise = balance_paise where user_id = $1', [userId]);
      await t.database.query('update users set status = status where user_id = $1', [userId]);
      await t.database.query('update sessions set last_used_at = now()');
      await t.database.query('delete from sessions where id = -1');
      await t.database.exec(`begin; update roles set status = status where role_id = (select min(role_id) from roles);
        insert into permissions (name, description, module) values ('announced_once', 'test', 'test'); delete from permissions where name = 'announced_once'; commit;`);
      // Announcements arrive in commit order: anything the first five announced would be heard first.
      await expect.poll(() => heard.length, { timeout: 10_000 }).toBeGreaterThan(0);
      expect(heard).toHaveLength(1);
    } finally {
      await stop();
    }
  });
});

describe.skipIf(testDbKind !== 'postgres')('when the listening connection is lost', () => {
  it('reads every session from the database until it listens again', async () => {
    const v = await viewer(['dashboard_view']);
    expect((await call(b, 'GET', '/users/getAllUser', v.token)).status).toBe(200);
    const [{ n }] = await second.query<{ n: number }>(
      `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
        where datname = current_database() and query ilike 'listen%' and pid <> pg_backend_pid()`,
    );
    expect(n).toBeGreaterThanOrEqual(1);
    // A change nobody announces to b while it is deaf (written with the trigger off) still applies at once.
    await expect.poll(async () => (await call(b, 'GET', '/users/getAllUser', v.token)).queries, { timeout: 10_000 }).toBeGreaterThan(1);
    await t.database.query(`
      begin; alter table role_permissions disable trigger role_permissions_auth_change;
      update role_permissions set status = false where role_id = ${v.roleId};
      alter table role_permissions enable trigger role_permissions_auth_change; commit;`.replaceAll('\n', ' '));
    expect((await call(b, 'GET', '/users/getAllUser', v.token)).status).toBe(403);
  });
});

describe.skipIf(testDbKind !== 'postgres')('which writes wait for the other copies', () => {
  // On PostgreSQL a write waits only when one of its own statements announced an auth change
  // (the trigger's notice marks the connection's caller). A copy that never applies anything
  // makes every wait visible: a waiting write takes a version of its own to wait for.
  const epoch = async () => Number((await t.database.query<{ v: string }>('select last_value as v from auth_epoch'))[0].v);

  it('a write that changes no session answers without waiting; a sign-out waits', async () => {
    await t.database.query(`insert into server_copies (id, applied_version, seen_at) values ('a copy that never applies', -1, now())`);
    try {
      const before = await epoch();
      const created = await call(a, 'POST', '/ranks/createRank', admin, { name: 'Rank created without a wait' });
      expect(created.status).toBe(201);
      expect(await epoch()).toBe(before);

      const token = await t.login();
      const beforeSignOut = await epoch();
      expect((await call(a, 'POST', '/users/logout', token)).status).toBe(200);
      // The deleted session's announcement, then the version the sign-out waited for.
      expect(await epoch()).toBe(beforeSignOut + 2);
    } finally {
      await t.database.query(`delete from server_copies where id = 'a copy that never applies'`);
    }
  });
});

describe('a listening connection that died without a word', () => {
  it('is found by the beat: a permission taken away on one copy applies on the deaf copy within seconds, not never', async () => {
    // The copy's listener "connects" and then hears nothing, like an idle connection a NAT dropped.
    const deaf: Database = { ...second, listen: async () => async () => {} };
    const c = await buildApp({ config, database: deaf });
    await c.ready();
    try {
      const v = await viewer(['dashboard_view']);
      const first = await call(c, 'GET', '/users/getAllUser', v.token);
      expect(first.status).toBe(200);
      expect((await call(c, 'GET', '/users/getAllUser', v.token)).queries).toBeLessThan(first.queries); // its session from the cache
      expect((await call(a, 'PUT', `/role-permissions/updatePermissionForRole/${v.roleId}`, admin, { permissionIds: v.ids(['users_view']) })).status).toBe(200);
      await expect.poll(async () => (await call(c, 'GET', '/users/getAllUser', v.token)).status, { timeout: 20_000, interval: 250 }).toBe(403);
    } finally {
      await c.close();
    }
  }, 40_000);
});
