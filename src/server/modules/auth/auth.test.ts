import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, confirmRegistration, createTestApp, type TestContext } from '../../test/harness.ts';
import { REGISTRATION_TAKEN, UNCONFIRMED } from './auth.service.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ config: { loginMaxFailuresPerEmail: 3 } });
});
afterAll(() => t.close());

const register = (payload: Record<string, unknown>, remoteAddress?: string) =>
  t.app.inject({ method: 'POST', url: '/api/register', payload, ...(remoteAddress ? { remoteAddress } : {}) });

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
  it('creates an unconfirmed account with no role: its token and its password work only once the mailed link is followed', async () => {
    const res = await register(newAccount(1));
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.message).toBe('Registration successful. We have sent a link to member1@test.local: follow it to confirm your address, then sign in.');
    expect(body.user).toMatchObject({ role: '', permissions: [], fullName: 'Member 1', twoFactorEnabled: false, twoFactorSetupRequired: false });
    const [row] = await t.database.query<{ role_id: number | null; can_sign_in: boolean; unconfirmed: boolean }>(
      `select role_id, can_sign_in, unconfirmed from users where email = 'member1@test.local'`,
    );
    expect(row).toEqual({ role_id: null, can_sign_in: true, unconfirmed: true });
    const mail = t.mail.find((m) => m.to === 'member1@test.local')!;
    expect(mail.kind).toBe('confirm');
    expect(mail.link).toMatch(new RegExp(`^${t.app.config.publicUrl}/confirm-email\\?token=`));

    // Unconfirmed: the token is refused, and the right password is answered with what to do.
    expect((await t.app.inject({ method: 'GET', url: '/api/users/me', headers: bearer(body.token) })).statusCode).toBe(401);
    const early = await t.app.inject({ method: 'POST', url: '/api/Adminlogin', payload: { email: 'member1@test.local', password: 'member-password' } });
    expect(early.statusCode).toBe(403);
    expect(early.json().message).toBe(UNCONFIRMED);
    // A wrong password still says only that.
    const wrong = await t.app.inject({ method: 'POST', url: '/api/Adminlogin', payload: { email: 'member1@test.local', password: 'not-the-password' }, remoteAddress: '10.1.0.1' });
    expect(wrong.json().message).toBe('Invalid email or password');

    await confirmRegistration(t, 'member1@test.local');
    expect((await t.database.query<{ unconfirmed: boolean }>(`select unconfirmed from users where email = 'member1@test.local'`))[0].unconfirmed).toBe(false);
    const stats = await t.app.inject({ method: 'GET', url: '/api/users/getAllUser', headers: bearer(body.token) });
    expect(stats.statusCode).toBe(403);
    expect(stats.json()).toMatchObject({ success: false });
    expect(stats.json().message).toMatch(/dashboard_view/);
    const token = await t.login('member1@test.local', 'member-password');
    expect(token).toBeTruthy();

    // The link works once.
    const again = await t.app.inject({ method: 'POST', url: '/api/users/confirm-email', payload: { token: new URL(mail.link).searchParams.get('token') } });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toMatch(/^This confirmation link is invalid or has expired/);
    const [entry] = await t.database.query<{ n: number }>(`select count(*)::int as n from audit_log where action = 'confirm_email'`);
    expect(entry.n).toBe(1);
  });

  it('a confirmation link cannot set a password, and a reset link cannot be used as a confirmation link', async () => {
    const res = await register({ ...newAccount(6), email: 'member6@test.local' }, '10.1.6.1');
    expect(res.statusCode).toBe(201);
    const confirm = new URL(t.mail.find((m) => m.to === 'member6@test.local')!.link).searchParams.get('token')!;
    const reset = await t.app.inject({ method: 'POST', url: '/api/users/reset-password', payload: { token: confirm, newPassword: 'taken-over-password' } });
    expect(reset.statusCode).toBe(400);
    // Forgot password mails the unconfirmed account a reset link: using it proves the address too.
    await t.app.inject({ method: 'POST', url: '/api/users/forgot-password', payload: { email: 'member6@test.local' }, remoteAddress: '10.1.6.1' });
    const resetToken = new URL(t.mail.find((m) => m.to === 'member6@test.local' && m.kind === 'reset')!.link).searchParams.get('token')!;
    expect((await t.app.inject({ method: 'POST', url: '/api/users/confirm-email', payload: { token: resetToken } })).statusCode).toBe(400);
    const used = await t.app.inject({ method: 'POST', url: '/api/users/reset-password', payload: { token: resetToken, newPassword: 'owner-chose-this-1' } });
    expect(used.statusCode).toBe(200);
    expect(await t.login('member6@test.local', 'owner-chose-this-1')).toBeTruthy();
  });

  it('finding 1: editing the built-in User role never gives a self-registered account access to members', async () => {
    const reg = await register(newAccount(5));
    expect(reg.statusCode).toBe(201);
    await confirmRegistration(t, 'member5@test.local');
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

  it('finding 11: a taken email, phone or username gets one and the same answer (409)', async () => {
    const taken = [
      { ...newAccount(2), email: 'member1@test.local' },
      { ...newAccount(2), phone: newAccount(1).phone },
      { ...newAccount(2), name: newAccount(1).name },
    ];
    for (const payload of taken) {
      const res = await register(payload, '10.1.2.1');
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ success: false, message: REGISTRATION_TAKEN });
    }
  });

  it('issue 24 item 9: a username, full name or address over its limit is refused at its field with a message, never cut', async () => {
    const cases: [string, string, string][] = [
      ['fullName', 'F'.repeat(300), 'Full name must be at most 100 characters'],
      ['name', 'u'.repeat(300), 'Username must be at most 50 characters'],
      ['address', 'A'.repeat(301), 'Address must be at most 300 characters'],
    ];
    for (const [i, [field, value, message]] of cases.entries()) {
      const res = await register({ ...newAccount(8), [field]: value }, `10.1.8.${i + 1}`);
      expect(res.statusCode, field).toBe(400);
      expect(res.json().errors).toEqual([expect.objectContaining({ path: `body.${field}`, field, message })]);
    }
    expect((await t.database.query(`select 1 from users where email = 'member8@test.local'`)).length).toBe(0);
  });

  it('finding 11: a short, common or trivial password is refused under the password field', async () => {
    const cases: [string, string][] = [
      ['aaaaaaaa', 'Password must be at least 10 characters'],
      ['aaaaaaaaaa', 'This password repeats too few characters: choose one that is harder to guess'],
      ['password123', 'This is one of the most common passwords: choose one that is harder to guess'],
      ['Qwertyuiop', 'This is one of the most common passwords: choose one that is harder to guess'],
      ['member7@test.local', 'Your password must not be your email address or username'],
    ];
    for (const [password, message] of cases) {
      const res = await register({ ...newAccount(7), password }, '10.1.7.1');
      expect(res.statusCode, password).toBe(400);
      expect(res.json().errors).toEqual([expect.objectContaining({ path: 'body.password', field: 'password', message })]);
    }
    expect((await t.database.query(`select 1 from users where email = 'member7@test.local'`)).length).toBe(0);
  });

  it('finding 11: registrations are limited per address, reserved before anything is checked (429 with Retry-After)', async () => {
    const limited = await createTestApp({ config: { registerMaxPerIp: 3 } });
    try {
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => limited.app.inject({
        method: 'POST', url: '/api/register', remoteAddress: '10.1.9.1',
        payload: { ...newAccount(100 + i), email: i % 2 ? 'member1@test.local' : `sweep${i}@test.local` },
      })));
      const statuses = answers.map((r) => r.statusCode);
      expect(statuses.filter((s) => s !== 429)).toHaveLength(3);
      const refused = answers.find((r) => r.statusCode === 429)!;
      expect(refused.json().message).toMatch(/^Too many registrations from this address\. Please try again in 1[45] minutes\.$/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(14 * 60);
      // Another address may still register.
      const other = await limited.app.inject({ method: 'POST', url: '/api/register', remoteAddress: '10.1.9.2', payload: newAccount(200) });
      expect(other.statusCode).toBe(201);
    } finally {
      await limited.close();
    }
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
    await confirmRegistration(t, 'member4@test.local');
    const oldToken = await t.login('member4@test.local', 'member-password');
    const forgot = await t.app.inject({ method: 'POST', url: '/api/users/forgot-password', payload: { email: 'member4@test.local' } });
    expect(forgot.statusCode).toBe(200);
    const mail = t.mail.find((m) => m.to === 'member4@test.local' && m.kind === 'reset');
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
