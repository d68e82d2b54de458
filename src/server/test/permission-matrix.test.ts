import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteAccess } from '../plugins/auth.ts';
import { hashToken } from '../lib/tokens.ts';
import { accountWithPermissions } from './accounts.ts';
import { bearer, createTestApp, type TestContext } from './harness.ts';

/**
 * The permission matrix, generated from the registered route table (app.routeList), so a route
 * added later is covered without touching this file: for every guarded route, no token → 401;
 * an account holding every permission but the route's own → 403; the route's own → neither.
 */
const UNKNOWN_ID = '987654321';

function request(route: RouteAccess, token?: string) {
  const url = route.url.replace(/:[A-Za-z]+/g, UNKNOWN_ID);
  const withBody = route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH';
  return {
    method: route.method as 'GET',
    url,
    headers: token ? bearer(token) : {},
    ...(withBody ? { payload: {} } : {}),
  };
}

describe('permission matrix over every registered /api route', () => {
  let t: TestContext;
  let routes: RouteAccess[];
  let allPermissions: string[];
  const allBut = new Map<string, string>();
  const only = new Map<string, string>();
  let noPermission: string;

  beforeAll(async () => {
    t = await createTestApp();
    routes = t.app.routeList;
    allPermissions = (await t.database.query<{ name: string }>('select name from permissions order by name')).map((p) => p.name);
    const needed = [...new Set(routes.map((r) => r.access).filter((a) => a !== 'public' && a !== 'session'))];
    for (const permission of needed) {
      allBut.set(permission, await accountWithPermissions(t.database, allPermissions.filter((p) => p !== permission)));
      only.set(permission, await accountWithPermissions(t.database, [permission]));
    }
    noPermission = await accountWithPermissions(t.database, []);
  });
  afterAll(() => t?.close());

  it('covers the whole route table, and every route names a known access', () => {
    expect(routes.length).toBeGreaterThan(60);
    const guarded = routes.filter((r) => r.access !== 'public').length;
    console.info(`permission matrix: ${routes.length} routes, ${guarded} guarded (${allBut.size} distinct permissions, ${2 * allBut.size + 1} generated accounts)`);
    for (const r of routes) {
      expect(['public', 'session', ...allPermissions], `${r.method} ${r.url}`).toContain(r.access);
    }
  });

  it('answers 401 without a token on every guarded route', async () => {
    const failures: string[] = [];
    for (const r of routes.filter((x) => x.access !== 'public')) {
      const res = await t.app.inject(request(r));
      if (res.statusCode !== 401 || res.json().success !== false) failures.push(`${r.method} ${r.url}: ${res.statusCode}`);
    }
    expect(failures).toEqual([]);
  });

  it('answers 401 for a malformed, unknown or expired token', async () => {
    const expired = await accountWithPermissions(t.database, allPermissions);
    await t.database.query(`update sessions set expires_at = now() - interval '1 second'`);
    const guarded = routes.filter((x) => x.access !== 'public');
    const failures: string[] = [];
    for (const token of ['short', 'x'.repeat(64), expired]) {
      for (const r of guarded) {
        const res = await t.app.inject(request(r, token));
        if (res.statusCode !== 401) failures.push(`${r.method} ${r.url} with ${token.slice(0, 8)}…: ${res.statusCode}`);
      }
    }
    expect(failures).toEqual([]);
    await t.database.query(`update sessions set expires_at = now() + interval '12 hours'`);
  });

  it('answers 403 to an account holding every permission but the route\u2019s own', async () => {
    const failures: string[] = [];
    for (const r of routes.filter((x) => allBut.has(x.access))) {
      const res = await t.app.inject(request(r, allBut.get(r.access)));
      const body = res.json();
      if (res.statusCode !== 403 || body.success !== false || !String(body.message).includes(r.access)) {
        failures.push(`${r.method} ${r.url}: ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('lets an account holding only the route\u2019s permission through the guard (neither 401 nor 403)', async () => {
    const failures: string[] = [];
    for (const r of routes.filter((x) => only.has(x.access))) {
      const res = await t.app.inject(request(r, only.get(r.access)));
      if (res.statusCode === 401 || res.statusCode === 403 || res.statusCode >= 500) {
        failures.push(`${r.method} ${r.url}: ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('lets any signed-in account through on "session" routes, and anyone on "public" ones', async () => {
    const failures: string[] = [];
    for (const r of routes.filter((x) => x.access === 'session' || x.access === 'public')) {
      if (r.url === '/api/users/logout') continue; // checked last: it ends the session it is given
      const res = await t.app.inject(request(r, r.access === 'session' ? noPermission : undefined));
      if (res.statusCode === 401 && r.access === 'session') failures.push(`${r.method} ${r.url}: 401`);
      if (res.statusCode === 403 || res.statusCode >= 500) failures.push(`${r.method} ${r.url}: ${res.statusCode}`);
      if (r.access === 'public' && res.json().message === 'Authentication required. Please sign in.') {
        failures.push(`${r.method} ${r.url}: public route asks for a token`);
      }
    }
    const logout = routes.find((r) => r.url === '/api/users/logout');
    if (logout) {
      const res = await t.app.inject(request(logout, noPermission));
      if (res.statusCode !== 200) failures.push(`${logout.method} ${logout.url}: ${res.statusCode}`);
    }
    expect(failures).toEqual([]);
  });

  it('refuses a deactivated role\u2019s permissions at once (403), without a new sign-in', async () => {
    const token = await accountWithPermissions(t.database, ['ranks_view']);
    const url = '/api/ranks/getAllRank';
    expect((await t.app.inject({ method: 'GET', url, headers: bearer(token) })).statusCode).toBe(200);
    const [role] = await t.database.query<{ roleId: number; name: string }>(
      `select r.role_id as "roleId", r.name from sessions s join users u on u.user_id = s.user_id join roles r on r.role_id = u.role_id
        where s.token_hash = $1`,
      [hashToken(token)],
    );
    // Deactivated by an operator (through the API: the answer comes once every server copy has
    // dropped the role's cached sessions, issue 23), then the account's very next request.
    const admin = await t.login();
    const off = await t.app.inject({ method: 'PUT', url: `/api/updateRole/${role.roleId}`, headers: bearer(admin), payload: { name: role.name, status: false } });
    expect(off.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url, headers: bearer(token) })).statusCode).toBe(403);
  });
});
