import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestContext } from '../../test/harness.ts';
import { insertUser } from '../users/users.repository.ts';
import { hashPassword } from './passwords.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const PASSWORD = 'staff-password-1';
let serial = 0;

/** A staff account with a password and no permission: changing one's own email needs none. */
async function staff() {
  serial += 1;
  const email = `self${serial}@test.local`;
  const user = await insertUser(t.database.db, {
    fullName: `Self ${serial}`, email, phone: `81000000${10 + serial}`, level: 1, canSignIn: true,
    passwordHash: await hashPassword(PASSWORD),
  });
  const signIn = await t.app.inject({ method: 'POST', url: '/api/Adminlogin', payload: { email, password: PASSWORD }, remoteAddress: `10.8.0.${serial}` });
  return { email, userId: user.userId, token: signIn.json().data.token as string };
}

const changeEmail = (token: string, payload: object) =>
  t.app.inject({ method: 'PUT', url: '/api/account/email', headers: bearer(token), payload });
const emailOf = async (userId: number) =>
  (await t.database.query<{ email: string }>('select email from users where user_id = $1', [userId]))[0].email;

describe('PUT /account/email: the account changes its own sign-in email', () => {
  it('asks for the password again, and answers 429 after 5 wrong ones: a held session cannot redirect the mail', async () => {
    const { userId, token } = await staff();
    for (let i = 0; i < 5; i += 1) {
      const res = await changeEmail(token, { email: 'thief@example.com', password: 'not-the-password' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ success: false, message: 'Your password is not correct' });
    }
    const limited = await changeEmail(token, { email: 'thief@example.com', password: PASSWORD });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/^Too many wrong passwords/);
    expect(await emailOf(userId)).toBe(`self${serial}@test.local`);
  });

  it('refuses an email another live account has, and the one it already has (409)', async () => {
    const other = await staff();
    const { token, email } = await staff();
    expect((await changeEmail(token, { email: other.email, password: PASSWORD })).json())
      .toEqual({ success: false, message: 'An account with this email already exists' });
    expect((await changeEmail(token, { email, password: PASSWORD })).statusCode).toBe(409);
    expect((await changeEmail(token, { email: 'not an email', password: PASSWORD })).statusCode).toBe(400);
  });

  it('mails a link to the new address; following it changes the email: the new one signs in, the old does not, a reset link mailed before stops working, audited', async () => {
    const { userId, email, token } = await staff();
    await t.app.inject({ method: 'POST', url: '/api/users/forgot-password', payload: { email }, remoteAddress: '10.8.1.1' });
    await expect.poll(() => t.mail.filter((m) => m.to === email).length, { timeout: 10_000 }).toBe(1);
    const oldLink = t.mail.find((m) => m.to === email)!.link;

    const res = await changeEmail(token, { email: ' New.Self@Example.com ', password: PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true, message: 'We have mailed a link to new.self@example.com: your sign-in email changes when you follow it (within 72 hours)',
    });
    // Nothing changes until the link is followed.
    expect(await emailOf(userId)).toBe(email);
    await expect.poll(() => t.mail.filter((m) => m.to === 'new.self@example.com' && m.kind === 'email').length, { timeout: 10_000 }).toBe(1);
    const link = new URL(t.mail.find((m) => m.to === 'new.self@example.com')!.link);
    expect(link.pathname).toBe('/confirm-email');
    const confirmed = await t.app.inject({ method: 'POST', url: '/api/users/confirm-email', payload: { token: link.searchParams.get('token') } });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toEqual({ success: true, message: 'Your sign-in email has been changed. Sign in with it from now on.' });
    expect(await emailOf(userId)).toBe('new.self@example.com');
    // Single use.
    expect((await t.app.inject({ method: 'POST', url: '/api/users/confirm-email', payload: { token: link.searchParams.get('token') } })).statusCode).toBe(400);

    const signIn = (address: string) =>
      t.app.inject({ method: 'POST', url: '/api/Adminlogin', payload: { email: address, password: PASSWORD }, remoteAddress: '10.8.1.2' });
    expect((await signIn('new.self@example.com')).statusCode).toBe(200);
    expect((await signIn(email)).statusCode).toBe(401);

    const token0 = new URL(oldLink).searchParams.get('token');
    const reset = await t.app.inject({ method: 'POST', url: '/api/users/reset-password', payload: { token: token0, newPassword: 'another-password-1' } });
    expect(reset.statusCode).toBe(400);

    const log = await t.database.query<{ action: string; actor_id: number; before: unknown; after: unknown }>(
      `select action, actor_id, before, after from audit_log where action in ('request_email_change', 'change_email') and entity_id = $1 order by id`, [String(userId)]);
    expect(log).toMatchObject([
      { action: 'request_email_change', actor_id: userId, before: { email }, after: { email: 'new.self@example.com' } },
      { action: 'change_email', actor_id: userId, before: { email }, after: { email: 'new.self@example.com' } },
    ]);
  });

  it('an address the account does not hold is never its own: a colleague\u2019s invitation to it goes through (it was refused, the squatter given their role)', async () => {
    const squatter = await staff();
    const res = await changeEmail(squatter.token, { email: 'new.hire@corp.test', password: PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(await emailOf(squatter.userId)).toBe(squatter.email);
    const admin = bearer(await t.login());
    const [support] = await t.database.query<{ role_id: number }>(`select role_id from roles where name = 'Support'`);
    const invited = await t.app.inject({
      method: 'POST', url: '/api/staff/invite', headers: admin, payload: { fullName: 'New Hire', email: 'new.hire@corp.test', roleId: support.role_id },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    // The squatter's link, followed later, finds the address taken and changes nothing.
    const link = new URL(t.mail.find((m) => m.to === 'new.hire@corp.test' && m.kind === 'email')!.link);
    const late = await t.app.inject({ method: 'POST', url: '/api/users/confirm-email', payload: { token: link.searchParams.get('token') } });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ success: false, message: 'An account with this email already exists' });
    expect(await emailOf(squatter.userId)).toBe(squatter.email);
  });
});
