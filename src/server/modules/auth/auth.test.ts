import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, createTestApp, type TestContext } from '../../test/harness.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ config: { loginMaxFailuresPerEmail: 3 } });
});
afterAll(() => t.close());

const register = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/register', payload });

const newAccount = (n: number) => ({
  name: `member${n}`, fullName: `Member ${n}`, email: `member${n}@test.local`, phone: `98765432${10 + n}`,
  address: 'MG Road, Pune', password: 'member-password',
});

describe('POST /api/Adminlogin', () => {
  it('signs in with the right password and returns a token and the account with its permissions', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/Adminlogin', payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.data.token).toMatch(/^[\w-]{40,}$/);
    expect(body.data.user).toMatchObject({ email: ADMIN_EMAIL, role: 'Admin' });
    expect(body.data.user.permissions).toContain('dashboard_view');
    expect(JSON.stringify(body)).not.toMatch(/scrypt|passwordHash/);
  });

  it('refuses a wrong password with 401 and the message in data.message', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/Adminlogin', payload: { email: 'nobody@test.local', password: 'x' } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ success: false, message: 'Invalid email or password', data: { message: 'Invalid email or password' } });
  });

  it('answers 400 with field messages for a malformed body', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/Adminlogin', payload: { email: 'not-an-email' } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.success).toBe(false);
    expect(body.errors.map((e: { path: string }) => e.path)).toEqual(expect.arrayContaining(['body.email', 'body.password']));
  });

  it('rate-limits repeated failures for one email from one address with 429 and a clear message', async () => {
    const attempt = () => t.app.inject({ method: 'POST', url: '/api/Adminlogin', payload: { email: 'victim@test.local', password: 'wrong' } });
    for (let i = 0; i < 3; i++) expect((await attempt()).statusCode).toBe(401);
    const limited = await attempt();
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/Too many failed sign-in attempts/);
  });
});

describe('sessions', () => {
  it('GET /api/users/me needs a token, and logout revokes it at once', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/users/me' })).statusCode).toBe(401);
    const token = await t.login();
    const me = await t.app.inject({ method: 'GET', url: '/api/users/me', headers: bearer(token) });
    expect(me.statusCode).toBe(200);
    expect(me.json().data.email).toBe(ADMIN_EMAIL);
    const out = await t.app.inject({ method: 'POST', url: '/api/users/logout', headers: bearer(token) });
    expect(out.json()).toEqual({ success: true, message: 'Logged out successfully' });
    const after = await t.app.inject({ method: 'GET', url: '/api/users/getAllUser', headers: bearer(token) });
    expect(after.statusCode).toBe(401);
    expect(after.json().success).toBe(false);
  });

  it('stores only a hash of the token', async () => {
    const token = await t.login();
    const rows = await t.database.query<{ token_hash: string }>('select token_hash from sessions');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.token_hash === token)).toBe(false);
  });

  it('"remember me" gives a 30-day session, otherwise 12 hours', async () => {
    const expiry = async (rememberMe: boolean) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/Adminlogin', payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD, rememberMe } });
      const [row] = await t.database.query<{ hours: number }>(
        `select extract(epoch from expires_at - now()) / 3600 as hours from sessions order by created_at desc limit 1`,
      );
      expect(res.statusCode).toBe(200);
      return Number(row.hours);
    };
    expect(await expiry(true)).toBeGreaterThan(24 * 29);
    expect(await expiry(false)).toBeLessThanOrEqual(12);
  });
});

describe('POST /api/register', () => {
  it('creates an account with no role that can sign in but gets 403 from admin routes', async () => {
    const res = await register(newAccount(1));
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.user).toMatchObject({ role: '', permissions: [], fullName: 'Member 1', twoFactorEnabled: false, twoFactorSetupRequired: false });
    const [row] = await t.database.query<{ role_id: number | null; can_sign_in: boolean }>(
      `select role_id, can_sign_in from users where email = 'member1@test.local'`,
    );
    expect(row).toEqual({ role_id: null, can_sign_in: true });
    const stats = await t.app.inject({ method: 'GET', url: '/api/users/getAllUser', headers: bearer(body.token) });
    expect(stats.statusCode).toBe(403);
    expect(stats.json()).toMatchObject({ success: false });
    expect(stats.json().message).toMatch(/dashboard_view/);
    const token = await t.login('member1@test.local', 'member-password');
    expect(token).toBeTruthy();
  });

  it('finding 1: editing the built-in User role never gives a self-registered account access to members', async () => {
    const reg = await register(newAccount(5));
    expect(reg.statusCode).toBe(201);
    // Whatever the role editor allows, even a User role holding users_view grants a stranger nothing.
    await t.database.query(
      `update role_permissions set permission_ids = (select array_agg(permission_id) from permissions where name = 'users_view'), status = true
        where role_id = (select role_id from roles where name = 'User')`,
    );
    const list = await t.app.inject({ method: 'GET', url: '/api/users/getAllusers', headers: bearer(reg.json().token) });
    expect(list.statusCode).toBe(403);
    expect(list.json().success).toBe(false);
    const me = await t.app.inject({ method: 'GET', url: '/api/users/me', headers: bearer(reg.json().token) });
    expect(me.json().data).toMatchObject({ role: '', permissions: [] });
  });

  it('refuses a duplicate email with 409', async () => {
    const res = await register({ ...newAccount(2), email: 'member1@test.local' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('An account with this email already exists');
  });

  it('validates every field', async () => {
    const res = await register({ name: 'x', fullName: '', email: 'bad', phone: '12', address: '', password: 'short' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.length).toBeGreaterThanOrEqual(6);
  });

  it('is off when ALLOW_REGISTRATION=false', async () => {
    const closed = await createTestApp({ config: { allowRegistration: false } });
    try {
      const res = await closed.app.inject({ method: 'POST', url: '/api/register', payload: newAccount(3) });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ success: false, message: 'Registration is disabled' });
    } finally {
      await closed.close();
    }
  });
});

describe('forgot and reset password', () => {
  it('mails a single-use link that sets a new password and signs out every session', async () => {
    await register(newAccount(4));
    const oldToken = await t.login('member4@test.local', 'member-password');
    const forgot = await t.app.inject({ method: 'POST', url: '/api/users/forgot-password', payload: { email: 'member4@test.local' } });
    expect(forgot.statusCode).toBe(200);
    const mail = t.mail.find((m) => m.to === 'member4@test.local');
    expect(mail?.link).toMatch(/\/reset-password\?token=/);
    const token = new URL(mail!.link).searchParams.get('token')!;

    const reset = await t.app.inject({ method: 'POST', url: '/api/users/reset-password', payload: { token, newPassword: 'brand-new-pass' } });
    expect(reset.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/users/me', headers: bearer(oldToken) })).statusCode).toBe(401);
    expect(await t.login('member4@test.local', 'brand-new-pass')).toBeTruthy();

    const again = await t.app.inject({ method: 'POST', url: '/api/users/reset-password', payload: { token, newPassword: 'another-pass' } });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('Invalid or expired reset token');
  });

  it('answers the same for an unknown email and sends nothing', async () => {
    const before = t.mail.length;
    const res = await t.app.inject({ method: 'POST', url: '/api/users/forgot-password', payload: { email: 'ghost@test.local' } });
    expect(res.statusCode).toBe(200);
    expect(t.mail.length).toBe(before);
  });
});
