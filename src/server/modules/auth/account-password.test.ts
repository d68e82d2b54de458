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
const NEW_PASSWORD = 'Quiet-harbour-42';
let serial = 0;

/** A staff account with a password and no permission (changing one's own password needs none), signed in twice. */
async function staff() {
  serial += 1;
  const email = `pw${serial}@test.local`;
  const user = await insertUser(t.database.db, {
    fullName: `Pw ${serial}`, email, phone: `82000000${10 + serial}`, level: 1, canSignIn: true,
    passwordHash: await hashPassword(PASSWORD),
  });
  const signIn = async (password = PASSWORD, n = 0) =>
    t.app.inject({ method: 'POST', url: '/api/Adminlogin', payload: { email, password }, remoteAddress: `10.9.${serial}.${n}` });
  const token = (await signIn()).json().data.token as string;
  const other = (await signIn(PASSWORD, 1)).json().data.token as string;
  return { email, userId: user.userId, token, other, signIn };
}

const change = (token: string, payload: object) =>
  t.app.inject({ method: 'PUT', url: '/api/account/password', headers: bearer(token), payload });
const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/users/me', headers: bearer(token) });

describe('PUT /account/password: the account changes its own password', () => {
  it('changes it: the new password signs in, the old does not, other sessions are signed out, this one stays; audited', async () => {
    const { userId, token, other, signIn } = await staff();
    const res = await change(token, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Your password has been changed. Your other sessions have been signed out.' });
    expect((await me(token)).statusCode).toBe(200);
    expect((await me(other)).statusCode).toBe(401);
    expect((await signIn(PASSWORD, 2)).statusCode).toBe(401);
    expect((await signIn(NEW_PASSWORD, 3)).statusCode).toBe(200);
    const [row] = await t.database.query<{ action: string; after: unknown }>(
      `select action, after from audit_log where entity = 'user' and entity_id = $1 and action = 'change_password'`, [String(userId)]);
    expect(row).toEqual({ action: 'change_password', after: { otherSessionsSignedOut: 1 } });
    expect(JSON.stringify(await t.database.query('select before, after from audit_log where entity_id = $1', [String(userId)]))).not.toContain(NEW_PASSWORD);
  });

  it('a wrong current password is refused (429 after 5); the policy checks the new one; nothing changes', async () => {
    const { email, token, other } = await staff();
    const weak = await change(token, { currentPassword: PASSWORD, newPassword: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().errors).toEqual([expect.objectContaining({ field: 'newPassword', message: 'Password must be at least 10 characters' })]);
    const common = await change(token, { currentPassword: PASSWORD, newPassword: 'password123' });
    expect(common.json().errors[0]).toMatchObject({ field: 'newPassword', message: 'This is one of the most common passwords: choose one that is harder to guess' });
    const personal = await change(token, { currentPassword: PASSWORD, newPassword: email });
    expect(personal.json().errors[0].message).toBe('Your password must not be your email address or username');
    const same = await change(token, { currentPassword: PASSWORD, newPassword: PASSWORD });
    expect(same.json().errors[0]).toMatchObject({ field: 'newPassword', message: 'Choose a password different from your current one' });
    for (let i = 0; i < 5; i += 1) {
      const wrong = await change(token, { currentPassword: 'not-the-password', newPassword: NEW_PASSWORD });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual({ success: false, message: 'Your current password is not correct' });
    }
    expect((await change(token, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD })).statusCode).toBe(429);
    expect((await me(other)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'PUT', url: '/api/account/password', payload: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD } })).statusCode).toBe(401);
  });
});
