import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../lib/tokens.ts';
import { ADMIN_EMAIL, bearer, createTestApp, type TestContext } from '../../test/harness.ts';
import { insertUser } from '../users/users.repository.ts';

const PUBLIC_URL = 'https://backoffice.example.com';

let t: TestContext;
const logLines: string[] = [];
beforeAll(async () => {
  t = await createTestApp({ config: { publicUrl: PUBLIC_URL, publicUrlSet: true }, logStream: { write: (line) => void logLines.push(line) } });
});
afterAll(() => t.close());

const forgot = (email: string, headers: Record<string, string> = {}, remoteAddress = '10.1.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/users/forgot-password', payload: { email }, headers, remoteAddress });
const reset = (token: string, newPassword: string) =>
  t.app.inject({ method: 'POST', url: '/api/users/reset-password', payload: { token, newPassword } });
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

let phones = 0;
async function staffAccount(email: string) {
  phones += 1;
  const register = await t.app.inject({
    method: 'POST', url: '/api/register',
    payload: { name: email.split('@')[0], fullName: 'Staff Member', email, phone: `91234500${10 + phones}`, address: 'Pune', password: 'first-password-1' },
  });
  expect(register.statusCode).toBe(201);
}

describe('issue 13 finding 3: reset links are built from PUBLIC_URL', () => {
  it('forgot-password sent with Host: evil.example mails a link on PUBLIC_URL to the owner', async () => {
    const res = await forgot(ADMIN_EMAIL, { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' });
    expect(res.statusCode).toBe(200);
    const mail = t.mail.at(-1)!;
    expect(mail).toMatchObject({ to: ADMIN_EMAIL, kind: 'reset' });
    expect(mail.link.startsWith(`${PUBLIC_URL}/reset-password?token=`)).toBe(true);
    expect(mail.link).not.toContain('evil.example');
  });
});

describe('issue 13 finding 4: reset tokens', () => {
  it('never reach the log: not when mailed, not when the link is opened, not when used', async () => {
    await staffAccount('logged@test.local');
    await forgot('logged@test.local');
    const token = tokenOf(t.mail.at(-1)!.link);
    await t.app.inject({ method: 'GET', url: `/reset-password?token=${token}` });
    await t.app.inject({ method: 'GET', url: `/accept-invite?token=${token}&x=1` });
    expect((await reset(token, 'logged-password-2')).statusCode).toBe(200);
    const log = logLines.join('\n');
    expect(log).toContain('/reset-password?token=[redacted]');
    expect(log).not.toContain(token);
    expect(log).not.toContain(encodeURIComponent(token));
  });

  it('an older link is refused after a newer one was asked for, and every other link after one is used', async () => {
    await staffAccount('twice@test.local');
    await forgot('twice@test.local');
    const first = tokenOf(t.mail.at(-1)!.link);
    await forgot('twice@test.local');
    const second = tokenOf(t.mail.at(-1)!.link);
    expect(second).not.toBe(first);

    // The attacker's steps: keep the first link, let the owner use the newer one, then try the old one.
    expect((await reset(second, 'owner-password-2')).statusCode).toBe(200);
    const old = await reset(first, 'attacker-password');
    expect(old.statusCode).toBe(400);
    expect(old.json()).toEqual({ success: false, message: 'Invalid or expired reset token' });
    expect(await t.login('twice@test.local', 'owner-password-2')).toBeTruthy();
  });

  it('using one link voids another live link of the account (an invite left open, for one)', async () => {
    await staffAccount('invited@test.local');
    const [{ user_id: userId }] = await t.database.query<{ user_id: number }>(`select user_id from users where email = 'invited@test.local'`);
    await t.database.query(
      `insert into password_resets (token_hash, user_id, expires_at, purpose) values ('unused-invite-hash', $1, now() + interval '72 hours', 'invite')`,
      [userId],
    );
    await forgot('invited@test.local');
    expect((await reset(tokenOf(t.mail.at(-1)!.link), 'invited-password-2')).statusCode).toBe(200);
    const live = await t.database.query(`select 1 from password_resets where user_id = $1 and used_at is null`, [userId]);
    expect(live).toEqual([]);
  });

  it('40 forgot-password calls for one email from 40 addresses mail at most 3 links, all answered alike', async () => {
    await staffAccount('flooded@test.local');
    const before = t.mail.filter((m) => m.to === 'flooded@test.local').length;
    const answers = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const res = await forgot('flooded@test.local', {}, `10.2.0.${i + 1}`);
      answers.add(`${res.statusCode} ${res.body}`);
    }
    expect(t.mail.filter((m) => m.to === 'flooded@test.local').length - before).toBeLessThanOrEqual(3);
    expect([...answers]).toEqual([
      '200 {"success":true,"message":"If an account exists for this email, a password reset link has been sent."}',
    ]);
  });

  it('answers an unknown email exactly like a known one, and limits one address with 429', async () => {
    const known = await forgot(ADMIN_EMAIL, {}, '10.3.0.1');
    const unknown = await forgot('nobody-here@test.local', {}, '10.3.0.1');
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);

    const limit = t.app.config.resetMaxPerIp;
    for (let i = 2; i < limit; i++) expect((await forgot(`probe${i}@test.local`, {}, '10.3.0.1')).statusCode).toBe(200);
    const limited = await forgot('probe-last@test.local', {}, '10.3.0.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      success: false,
      message: `Too many password reset requests from this address. Please try again in ${t.app.config.loginWindowMinutes} minutes.`,
    });
    expect((await forgot('probe-other@test.local', {}, '10.3.0.2')).statusCode).toBe(200);
  });
});

describe('invite links', () => {
  it('reset-password consumes an invite link: the invited staff member sets a first password and signs in', async () => {
    const [{ role_id: roleId }] = await t.database.query<{ role_id: number }>(`select role_id from roles where name = 'Admin'`);
    const { userId } = await insertUser(t.database.db, {
      fullName: 'New Staff', email: 'new-staff@test.local', phone: '9000012345', level: 1, roleId, canSignIn: true,
    });
    const token = 'an-invite-token-of-enough-length';
    await t.database.query(
      `insert into password_resets (token_hash, user_id, expires_at, purpose) values ($1, $2, now() + interval '72 hours', 'invite')`,
      [hashToken(token), userId],
    );
    const res = await reset(token, 'staff-password-1');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Your password has been set. You can sign in now.' });
    const session = await t.login('new-staff@test.local', 'staff-password-1');
    const me = await t.app.inject({ method: 'GET', url: '/api/users/me', headers: bearer(session) });
    expect(me.json().data).toMatchObject({ email: 'new-staff@test.local', role: 'Admin' });
    expect((await reset(token, 'staff-password-2')).statusCode).toBe(400);
    const audit = await t.database.query(`select actor_id from audit_log where action = 'accept_invite' and entity_id = $1::text`, [userId]);
    expect(audit.map((a) => Number((a as { actor_id: number }).actor_id))).toEqual([userId]);
  });
});
