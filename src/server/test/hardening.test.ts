import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_ICON_RULE } from '../../contract/services.ts';
import { bearer, createTestApp, type TestContext } from './harness.ts';

/** Limits and headers a money platform must hold, checked through the whole stack. */
describe('hardening', () => {
  let t: TestContext;
  let token: string;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'backoffice-hardening-'));
    t = await createTestApp({ config: { dataDir, loginMaxFailuresPerEmail: 3 } });
    token = await t.login();
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('sends the security headers on answers, refusals and unknown paths alike', async () => {
    for (const [url, status] of [['/api', 200], ['/api/users/getAllUser', 401], ['/api/no-such-route', 404]] as const) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(status);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['x-powered-by']).toBeUndefined();
      // The whole set helmet gives with our options (worked out once, plugins/security-headers.ts).
      expect(csp).toBe("default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'none';" +
        "img-src 'self' data: blob: https:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' 'unsafe-inline';upgrade-insecure-requests");
      expect(res.headers).toMatchObject({
        'strict-transport-security': 'max-age=31536000; includeSubDomains', 'cross-origin-opener-policy': 'same-origin',
        'cross-origin-resource-policy': 'same-origin', 'origin-agent-cluster': '?1', 'x-dns-prefetch-control': 'off',
        'x-download-options': 'noopen', 'x-permitted-cross-domain-policies': 'none', 'x-xss-protection': '0',
      });
    }
  });

  it('refuses a JSON body over 1 MB with 413 before it reaches a handler', async () => {
    const res = await t.app.inject({
      method: 'POST', url: '/api/ranks/createRank', headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ success: false, message: 'Request body is too large' });
  });

  it('refuses a service icon over 1 MB with 413 and the icon rule, and writes no file', async () => {
    const boundary = 'hardening';
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(1024 * 1024 + 10)]);
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="serviceName"\r\n\r\nBig\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="serviceIcon"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await t.app.inject({
      method: 'POST', url: '/api/services/createService',
      headers: { ...bearer(token), 'content-type': `multipart/form-data; boundary=${boundary}` }, payload,
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe(SERVICE_ICON_RULE);
    expect(fs.existsSync(path.join(dataDir, 'uploads', 'service-icons')) ? fs.readdirSync(path.join(dataDir, 'uploads', 'service-icons')) : []).toEqual([]);
  });

  it('refuses NUL characters and absurdly nested bodies with 400, never 500', async () => {
    const nul = await t.app.inject({ method: 'POST', url: '/api/ranks/createRank', headers: bearer(token), payload: { name: 'a\u0000b' } });
    expect(nul.statusCode).toBe(400);
    expect(nul.json()).toEqual({ success: false, message: 'Text must not contain NUL characters' });
    const deep = await t.app.inject({
      method: 'POST', url: '/api/ranks/createRank', headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: `{"name":"n","x":${'['.repeat(5000)}${']'.repeat(5000)}}`,
    });
    expect(deep.statusCode).toBe(400);
    const csv = await t.app.inject({ method: 'GET', url: '/api/wallets/dailyPayout.csv?userName=a%00b', headers: bearer(token) });
    expect(csv.statusCode).toBe(400);
  });

  it('answers a malformed address or an over-long path parameter as JSON', async () => {
    const bad = await t.app.inject({ method: 'GET', url: '/api/ranks/getRankById/%ZZ', headers: bearer(token) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ success: false, message: 'The address is not a valid URL' });
    const long = await t.app.inject({ method: 'GET', url: `/api/ranks/getRankById/${'9'.repeat(200)}`, headers: bearer(token) });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual({ success: false, message: 'A path parameter is too long' });
  });

  it('maps a value the database cannot hold (integer out of range) to 400', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/users/getUsersByRank?rankId=1000000000000000', headers: bearer(token) });
    expect(res.statusCode).toBe(400);
    expect(res.json().success).toBe(false);
  });

  it('locks an email out after repeated failures with a clear message, even for the right password', async () => {
    const attempt = (password: string) => t.app.inject({ method: 'POST', url: '/api/Adminlogin', payload: { email: 'admin@test.local', password } });
    for (let i = 0; i < 3; i++) expect((await attempt('wrong-password')).statusCode).toBe(401);
    const locked = await attempt('admin-password-1');
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toMatch(/^Too many failed sign-in attempts/);
  });

  it('keeps CORS closed: no cross-origin grant, and a preflight is not answered with one', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api', headers: { origin: 'https://evil.example' } });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await t.app.inject({
      method: 'OPTIONS', url: '/api/users/getAllUser',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});
