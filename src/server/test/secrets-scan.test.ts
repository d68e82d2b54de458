import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountWithPermissions } from './accounts.ts';
import { ADMIN_PASSWORD, bearer, createTestApp, type TestContext } from './harness.ts';
import { secretWatch } from './secrets.ts';

/**
 * No password hash or session token in any response (every createTestApp app scans every
 * response body it sends; close() fails a suite on a leak) nor in any log line.
 */
describe('secrets stay secret', () => {
  let t: TestContext;
  const lines: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({ members: 5, logStream: { write: (line) => void lines.push(line) } });
  });
  afterAll(() => t?.close());

  it('the response scanner recognises a hash, a secret field and an issued token', () => {
    const watch = secretWatch();
    watch.tokens.add('tok_abcdefghijklmnopqrstuvwxyz0123456789');
    expect(watch.check('{"note":"scrypt$16384$8$1$c2FsdA$aGFzaA"}')).toBe('a password hash');
    expect(watch.check('{"passwordHash":null}')).toBe('a "passwordHash" field');
    expect(watch.check('{"t":"tok_abcdefghijklmnopqrstuvwxyz0123456789"}')).toMatch(/^the token/);
    expect(watch.check('{"success":true,"data":[]}')).toBeNull();
  });

  it('sign-in, registration, password reset and every read leave no password, hash or token in a response or log line', async () => {
    const token = await t.login();
    await t.app.inject({ method: 'POST', url: '/api/Adminlogin', payload: { email: 'admin@test.local', password: 'not-the-password' } });
    const reg = await t.app.inject({
      method: 'POST', url: '/api/register',
      payload: { name: 'scanuser', fullName: 'Scan User', email: 'scan@test.local', phone: '9123456700', address: 'Pune', password: 'scan-password-1' },
    });
    expect(reg.statusCode).toBe(201);
    await t.app.inject({ method: 'POST', url: '/api/users/forgot-password', payload: { email: 'scan@test.local' } });
    const resetToken = new URL(t.mail.find((m) => m.kind === 'reset')!.link).searchParams.get('token')!;
    await t.app.inject({ method: 'POST', url: '/api/users/reset-password', payload: { token: resetToken, newPassword: 'scan-password-2' } });

    const viewer = await accountWithPermissions(t.database, []);
    for (const route of t.app.routeList.filter((r) => r.method === 'GET' && !r.url.includes(':'))) {
      await t.app.inject({ method: 'GET', url: route.url, headers: bearer(token) });
    }
    await t.app.inject({ method: 'GET', url: '/api/users/me', headers: bearer(viewer) });
    await t.app.inject({ method: 'GET', url: '/api/users/updateByUserId/1', headers: bearer(token) });
    await t.app.inject({ method: 'POST', url: '/api/users/logout', headers: bearer(token) });

    expect(t.secrets.scanned).toBeGreaterThan(20);
    expect(t.secrets.leaks).toEqual([]);
    const log = lines.join('\n');
    expect(lines.length).toBeGreaterThan(20);
    const hashes = (await t.database.query<{ h: string }>('select password_hash as h from users where password_hash is not null')).map((r) => r.h);
    for (const secret of [ADMIN_PASSWORD, 'not-the-password', 'scan-password-1', 'scan-password-2', token, viewer, resetToken, ...hashes, ...t.secrets.tokens]) {
      expect(log.includes(secret), `a log line contains ${secret.slice(0, 8)}…`).toBe(false);
    }
    expect(log).not.toMatch(/authorization|bearer/i);
  });
});
