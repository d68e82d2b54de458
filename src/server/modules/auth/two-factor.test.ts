import { Secret, TOTP } from 'otpauth';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, createTestApp, type TestContext } from '../../test/harness.ts';
import { insertUser } from '../users/users.repository.ts';
import { hashPassword } from './passwords.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
// Only Date is faked: codes are computed for chosen 30-second steps, the database keeps real time.
afterEach(() => vi.useRealTimers());

const PASSWORD = 'staff-password-1';
let serial = 0;

/** A staff account (password set) whose role holds dashboard_view and may require two-factor. */
async function staff(twoFactorRequired: boolean) {
  serial += 1;
  const [role] = await t.database.query<{ role_id: number }>(
    'insert into roles (name, status, two_factor_required) values ($1, true, $2) returning role_id',
    [`2fa-role-${serial}`, twoFactorRequired],
  );
  await t.database.query(
    `insert into role_permissions (role_id, role_name, permission_ids, status)
     select $1, $2, array_agg(permission_id), true from permissions where name = 'dashboard_view'`,
    [role.role_id, `2fa-role-${serial}`],
  );
  const email = `staff${serial}@test.local`;
  const user = await insertUser(t.database.db, {
    fullName: `Staff ${serial}`, email, phone: `80000000${10 + serial}`, level: 1, roleId: role.role_id, canSignIn: true,
    passwordHash: await hashPassword(PASSWORD),
  });
  return { email, userId: user.userId };
}

const signIn = (email: string, extra: Record<string, unknown> = {}, remoteAddress = '10.9.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/Adminlogin', payload: { email, password: PASSWORD, ...extra }, remoteAddress, headers: { 'user-agent': 'Test Agent/1.0' } });
const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });

/** The code an authenticator shows `steps` 30-second steps from now. */
const codeAt = (secret: string, steps = 0) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + steps * 30_000 });

/** Watches the secret and recovery codes: no later response may contain them (close() fails otherwise). */
function watch(...secrets: string[]) {
  for (const s of secrets) t.secrets.tokens.add(s);
}

/** Sets up and confirms two-factor with a full session; returns the secret and recovery codes. */
async function enrol(token: string) {
  const setup = await call('POST', '/account/two-factor/setup', token);
  expect(setup.statusCode).toBe(200);
  const { secret } = setup.json().data;
  watch(secret);
  const confirm = await call('POST', '/account/two-factor/confirm', token, { code: codeAt(secret) });
  expect(confirm.statusCode).toBe(200);
  const { recoveryCodes } = confirm.json().data as { recoveryCodes: string[] };
  watch(...recoveryCodes);
  return { secret, recoveryCodes };
}

describe('enrolment required by the role', () => {
  it('a password sign-in gives an enrol-only session until a code confirms the new secret', async () => {
    const { email } = await staff(true);
    const res = await signIn(email);
    expect(res.statusCode).toBe(200);
    const { token, user } = res.json().data;
    expect(user).toMatchObject({ twoFactorSetupRequired: true, twoFactorEnabled: false, permissions: [] });

    const blocked = await call('GET', '/users/getAllUser', token);
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toEqual({ success: false, message: 'Set up two-factor sign-in before you continue' });
    expect((await call('GET', '/account/sessions', token)).statusCode).toBe(403);
    expect((await call('GET', '/users/me', token)).json().data.twoFactorSetupRequired).toBe(true);
    expect((await call('GET', '/account/two-factor', token)).json().data).toEqual({ enabled: false, required: true, recoveryCodesLeft: 0 });

    const setup = await call('POST', '/account/two-factor/setup', token);
    expect(setup.statusCode).toBe(200);
    const { secret, otpauthUrl, qrDataUrl } = setup.json().data;
    watch(secret);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\/Backoffice:staff\d+%40test\.local\?/);
    expect(otpauthUrl).toContain(`secret=${secret}`);
    expect(qrDataUrl).toMatch(/^data:image\/png;base64,/);

    const wrong = await call('POST', '/account/two-factor/confirm', token, { code: codeAt(secret, 5) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('Invalid two-factor code');
    expect((await call('GET', '/users/getAllUser', token)).statusCode).toBe(403);

    const confirm = await call('POST', '/account/two-factor/confirm', token, { code: codeAt(secret) });
    expect(confirm.statusCode).toBe(200);
    const { recoveryCodes } = confirm.json().data;
    watch(...recoveryCodes);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const [stored] = await t.database.query<{ hashes: string[] }>(
      'select recovery_code_hashes as hashes from two_factor where secret = $1', [secret],
    );
    expect(stored.hashes).toHaveLength(10);
    expect(stored.hashes.some((h) => recoveryCodes.includes(h))).toBe(false);

    expect((await call('GET', '/users/getAllUser', token)).statusCode).toBe(200);
    expect((await call('GET', '/users/me', token)).json().data).toMatchObject({
      twoFactorEnabled: true, twoFactorSetupRequired: false, permissions: ['dashboard_view'],
    });
    // The secret is never handed out again: a second setup is refused, the status tells only on/off.
    expect((await call('POST', '/account/two-factor/setup', token)).statusCode).toBe(409);
    expect((await call('GET', '/account/two-factor', token)).json().data).toEqual({ enabled: true, required: true, recoveryCodesLeft: 10 });
  });

  it('the Admin role requires it when ADMIN_TWO_FACTOR is on', async () => {
    const strict = await createTestApp({ config: { adminTwoFactor: true } });
    try {
      const res = await strict.app.inject({ method: 'POST', url: '/api/Adminlogin', payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
      expect(res.json().data.user.twoFactorSetupRequired).toBe(true);
      const stats = await strict.app.inject({ method: 'GET', url: '/api/users/getAllUser', headers: bearer(res.json().data.token) });
      expect(stats.statusCode).toBe(403);
    } finally {
      await strict.close();
    }
  });

  it('without it (a development start) the Admin signs in straight away', async () => {
    const res = await signIn(ADMIN_EMAIL, { password: ADMIN_PASSWORD });
    expect(res.json().data.user).toMatchObject({ twoFactorSetupRequired: false, twoFactorEnabled: false });
  });
});

describe('sign-in with a second factor', () => {
  it('asks for the code after the password, accepts each code and recovery code once', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const { email, userId } = await staff(false);
    const first = (await signIn(email)).json().data.token;
    const { secret, recoveryCodes } = await enrol(first);

    const wrongPassword = await signIn(email, { password: 'not-it' });
    expect(wrongPassword.statusCode).toBe(401);
    expect(wrongPassword.json()).toEqual({ success: false, message: 'Invalid email or password', data: { message: 'Invalid email or password' } });

    const noCode = await signIn(email);
    expect(noCode.statusCode).toBe(401);
    expect(noCode.json()).toMatchObject({ success: false, message: 'Enter the 6-digit code from your authenticator app', twoFactorRequired: true });

    const failuresBefore = await t.database.query(`select 1 from login_failures where key like $1`, [`%${email}%`]);
    const wrongCode = await signIn(email, { code: codeAt(secret, 4) });
    expect(wrongCode.statusCode).toBe(401);
    expect(wrongCode.json()).toMatchObject({ message: 'Invalid two-factor code', twoFactorRequired: true });
    const failuresAfter = await t.database.query(`select 1 from login_failures where key like $1`, [`%${email}%`]);
    expect(failuresAfter.length).toBeGreaterThan(failuresBefore.length);

    vi.setSystemTime(Date.now() + 30_000);
    const code = codeAt(secret);
    const ok = await signIn(email, { code });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.user).toMatchObject({ twoFactorEnabled: true, twoFactorSetupRequired: false });
    // The attacker who saw the code over a shoulder, within the same 30 seconds:
    const replay = await signIn(email, { code }, '10.9.0.2');
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toBe('Invalid two-factor code');
    // A code of an earlier step than one accepted is refused too.
    expect((await signIn(email, { code: codeAt(secret, -1) }, '10.9.0.3')).statusCode).toBe(401);

    const recovery = await signIn(email, { code: recoveryCodes[0].toUpperCase() }, '10.9.0.4');
    expect(recovery.statusCode).toBe(200);
    expect((await signIn(email, { code: recoveryCodes[0] }, '10.9.0.5')).statusCode).toBe(401);
    const [left] = await t.database.query<{ n: number }>(
      'select cardinality(recovery_code_hashes) as n from two_factor where user_id = $1', [userId],
    );
    expect(Number(left.n)).toBe(9);
  });

  it('turns off with a code unless the role requires it', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const free = await staff(false);
    const token = (await signIn(free.email)).json().data.token;
    const { secret } = await enrol(token);
    expect((await call('DELETE', '/account/two-factor', token, { code: '000000' })).json().message).toBe('Invalid two-factor code');
    vi.setSystemTime(Date.now() + 30_000);
    const off = await call('DELETE', '/account/two-factor', token, { code: codeAt(secret) });
    expect(off.json()).toEqual({ success: true, message: 'Two-factor sign-in is off' });
    expect((await signIn(free.email)).statusCode).toBe(200);

    const bound = await staff(true);
    const enrolToken = (await signIn(bound.email)).json().data.token;
    const second = await enrol(enrolToken);
    vi.setSystemTime(Date.now() + 30_000);
    const refused = await call('DELETE', '/account/two-factor', enrolToken, { code: codeAt(second.secret) });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Your role requires two-factor sign-in, so it cannot be turned off.');
  });

  it('validates the code field', async () => {
    const res = await signIn(ADMIN_EMAIL, { password: ADMIN_PASSWORD, code: '12ab' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/Enter the 6-digit code/);
  });
});

describe('your sessions', () => {
  it('lists the account\'s own sessions with the current one marked, and ends one of them', async () => {
    const { email } = await staff(false);
    const a = (await signIn(email, {}, '10.8.0.1')).json().data.token;
    const b = (await signIn(email, {}, '10.8.0.2')).json().data.token;
    const other = await t.login();

    const list = await call('GET', '/account/sessions', a);
    expect(list.statusCode).toBe(200);
    const sessions = list.json().data as Array<{ id: number; ip: string; userAgent: string; current: boolean; lastUsedAt: string | null }>;
    expect(sessions).toHaveLength(2);
    expect(sessions.find((s) => s.current)).toMatchObject({ ip: '10.8.0.1', userAgent: 'Test Agent/1.0' });
    expect(sessions.every((s) => s.lastUsedAt !== null)).toBe(true);
    expect(JSON.stringify(list.json())).not.toMatch(/token/i);

    const adminSessions = (await call('GET', '/account/sessions', other)).json().data as Array<{ id: number }>;
    const notMine = await call('DELETE', `/account/sessions/${adminSessions[0].id}`, a);
    expect(notMine.statusCode).toBe(404);
    expect(notMine.json()).toEqual({ success: false, message: 'Session not found' });
    expect((await call('GET', '/users/me', other)).statusCode).toBe(200);

    const bId = sessions.find((s) => s.ip === '10.8.0.2')!.id;
    expect((await call('DELETE', `/account/sessions/${bId}`, a)).json()).toEqual({ success: true, message: 'Session signed out' });
    expect((await call('GET', '/users/me', b)).statusCode).toBe(401);
    expect((await call('DELETE', '/account/sessions/abc', a)).statusCode).toBe(400);
  });

  it('keeps "last used" fresh with at most one write a minute per session', async () => {
    const { email } = await staff(false);
    const token = (await signIn(email, {}, '10.8.1.1')).json().data.token;
    const lastUsed = async () =>
      (await t.database.query<{ at: string }>(`select last_used_at::text as at from sessions where ip = '10.8.1.1'`))[0].at;
    const atSignIn = await lastUsed();
    await call('GET', '/users/me', token);
    expect(await lastUsed()).toBe(atSignIn);

    // Two minutes later by this server's clock (it keeps the minute with its cached session, issue 23).
    const stale = await lastUsed();
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 2 * 60_000 });
    try {
      await call('GET', '/users/me', token);
      const fresh = await lastUsed();
      expect(fresh > stale).toBe(true);
      await call('GET', '/users/me', token);
      expect(await lastUsed()).toBe(fresh);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('guessing codes with a session', () => {
  it('answers 429 after 5 wrong codes on enrolment, so a held session cannot guess its way in', async () => {
    const { email } = await staff(true);
    const { token } = (await signIn(email, {}, '10.9.7.1')).json().data;
    const setup = await call('POST', '/account/two-factor/setup', token);
    const { secret } = setup.json().data;
    watch(secret);
    const wrong = codeAt(secret, 40); // twenty minutes away: never within the accepted window
    for (let i = 0; i < 5; i += 1) {
      const res = await call('POST', '/account/two-factor/confirm', token, { code: wrong });
      expect(res.json()).toEqual({ success: false, message: 'Invalid two-factor code' });
    }
    const limited = await call('POST', '/account/two-factor/confirm', token, { code: codeAt(secret) });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/^Too many wrong two-factor codes/);
    const [row] = await t.database.query<{ enabled_at: unknown }>(
      'select enabled_at from two_factor where user_id = (select user_id from users where email = $1)', [email]);
    expect(row.enabled_at).toBeNull();
  });

  it('answers 429 after 5 wrong codes on turning two-factor off, and it stays on', async () => {
    const { email, userId } = await staff(false);
    const { token } = (await signIn(email, {}, '10.9.7.2')).json().data;
    const { secret } = await enrol(token);
    for (let i = 0; i < 5; i += 1) {
      expect((await call('DELETE', '/account/two-factor', token, { code: codeAt(secret, 40) })).statusCode).toBe(400);
    }
    const limited = await call('DELETE', '/account/two-factor', token, { code: codeAt(secret, 1) });
    expect(limited.statusCode).toBe(429);
    const [row] = await t.database.query<{ n: number }>('select count(*)::int as n from two_factor where user_id = $1 and enabled_at is not null', [userId]);
    expect(row.n).toBe(1);
  });
});
