import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/harness.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('system routes and error shapes', () => {
  it('GET /api answers the connection test and /api/health checks the database', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api' })).json()).toMatchObject({ success: true });
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({ success: true, status: 'ok', database: t.database.kind });
  });

  it('answers 404 JSON for an unknown /api path', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/no/such/thing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, message: 'Route GET /api/no/such/thing not found' });
  });

  it('answers 400 JSON for a body that is not JSON', async () => {
    const res = await t.app.inject({
      method: 'POST', url: '/api/Adminlogin', headers: { 'content-type': 'application/json' }, payload: '{"email":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, message: 'Request body is not valid JSON' });
  });

  it('answers 415 JSON for an unsupported content type', async () => {
    const res = await t.app.inject({
      method: 'POST', url: '/api/Adminlogin', headers: { 'content-type': 'text/xml' }, payload: '<a/>',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().success).toBe(false);
  });

  it('serves the OpenAPI description publicly', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().paths)).toEqual(expect.arrayContaining(['/api/Adminlogin', '/api/users/getAllUser']));
  });

  it('sends security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
  });
});

describe('every route declares its access', () => {
  const PUBLIC = new Set([
    'GET /api', 'GET /api/health', 'POST /api/Adminlogin', 'POST /api/register',
    'POST /api/users/forgot-password', 'POST /api/users/reset-password', 'POST /api/users/confirm-email',
    // The bank's answers (issue 25): no session, signed with BANK_WEBHOOK_SECRET (HMAC-SHA256), checked first.
    'POST /api/bank-transfers/webhook',
  ]);

  it('has a permission or is on the public list, and an unauthenticated call to a guarded one gets 401', async () => {
    expect(t.app.routeList.length).toBeGreaterThan(5);
    for (const { method, url, access } of t.app.routeList) {
      const key = `${method} ${url}`;
      expect(access, key).toBeTruthy();
      if (access === 'public') {
        expect(PUBLIC.has(key), `${key} is public but not on the public list`).toBe(true);
      } else {
        const res = await t.app.inject({ method: method as 'GET', url: url.replace(/:(\w+)/g, '1') });
        expect(res.statusCode, key).toBe(401);
      }
    }
  });
});

describe('CORS', () => {
  it('is closed by default and open to the CORS_ORIGINS allow-list only', async () => {
    const closed = await t.app.inject({ method: 'GET', url: '/api', headers: { origin: 'https://evil.example' } });
    expect(closed.headers['access-control-allow-origin']).toBeUndefined();
    const open = await createTestApp({ config: { corsOrigins: ['https://ops.example'] } });
    try {
      const ok = await open.app.inject({ method: 'GET', url: '/api', headers: { origin: 'https://ops.example' } });
      expect(ok.headers['access-control-allow-origin']).toBe('https://ops.example');
      const other = await open.app.inject({ method: 'GET', url: '/api', headers: { origin: 'https://evil.example' } });
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await open.close();
    }
  });
});

describe('Server-Timing (SERVER_TIMING, EXPLAIN_QUERIES)', () => {
  it('reports the database time of each request, and the execution time under EXPLAIN ANALYZE', async () => {
    const timed = await createTestApp({ config: { serverTiming: true, explainQueries: true } });
    try {
      const token = await timed.login();
      const res = await timed.app.inject({
        method: 'GET', url: '/api/users/getAllUser', headers: { authorization: `Bearer ${token}`, 'x-explain-queries': '1' },
      });
      expect(res.statusCode).toBe(200);
      const header = String(res.headers['server-timing']);
      const db = /db;dur=([\d.]+);desc="(\d+) queries"/.exec(header);
      const exec = /dbexec;dur=([\d.]+)/.exec(header);
      expect(Number(db?.[2])).toBeGreaterThanOrEqual(2); // the session lookup and the counters
      expect(Number(db?.[1])).toBeGreaterThan(0);
      expect(Number(exec?.[1])).toBeGreaterThan(0);
      // A Drizzle query with parameters (Drizzle hands its values beside the statement) explains too.
      const drizzleRead = await timed.app.inject({
        method: 'GET', url: '/api/ranks/getRankById/100001', headers: { authorization: `Bearer ${token}`, 'x-explain-queries': '1' },
      });
      expect(drizzleRead.statusCode).toBe(200);
      expect(String(drizzleRead.headers['server-timing'])).toMatch(/dbexec;dur=/);
      const unexplained = await timed.app.inject({ method: 'GET', url: '/api/users/getAllUser', headers: { authorization: `Bearer ${token}` } });
      expect(String(unexplained.headers['server-timing'])).not.toContain('dbexec');
    } finally {
      await timed.close();
    }
    const plain = await t.app.inject({ method: 'GET', url: '/api' });
    expect(plain.headers['server-timing']).toBeUndefined();
  });
});
