import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createTestApp, type TestContext } from '../../test/harness.ts';

let t: TestContext;
beforeAll(async () => {
  // The shipped limits: 5 per email and address, 30 per address; a lower account ceiling keeps the test short.
  t = await createTestApp({ config: { loginMaxFailuresPerEmail: 5, loginMaxFailuresPerIp: 30, loginMaxFailuresPerAccount: 12 } });
});
afterAll(() => t.close());

const signIn = (email: string, password: string, remoteAddress: string) =>
  t.app.inject({ method: 'POST', url: '/api/Adminlogin', payload: { email, password }, remoteAddress });

describe('issue 13 finding 5: strangers cannot lock an administrator out', () => {
  it('5 wrong passwords for the admin from 10.0.0.1 lock only that address; the admin signs in from 10.0.0.2', async () => {
    for (let i = 0; i < 5; i++) expect((await signIn(ADMIN_EMAIL, 'guess', '10.0.0.1')).statusCode).toBe(401);
    const attacker = await signIn(ADMIN_EMAIL, ADMIN_PASSWORD, '10.0.0.1');
    expect(attacker.statusCode).toBe(429);
    expect(attacker.json().message).toBe(`Too many failed sign-in attempts. Please try again in ${t.app.config.loginWindowMinutes} minutes.`);

    const admin = await signIn(ADMIN_EMAIL, ADMIN_PASSWORD, '10.0.0.2');
    expect(admin.statusCode).toBe(200);
    expect(admin.json().data.user.email).toBe(ADMIN_EMAIL);
    const [row] = await t.database.query<{ recent: boolean }>(
      `select last_login > now() - interval '1 minute' as recent from users where email = $1`, [ADMIN_EMAIL],
    );
    expect(row.recent).toBe(true);
  });

  it('30 failures from one address (any emails) stop that address, never a different one', async () => {
    for (let i = 0; i < 30; i++) expect((await signIn(`nobody${i}@test.local`, 'guess', '10.0.1.1')).statusCode).toBe(401);
    expect((await signIn(ADMIN_EMAIL, ADMIN_PASSWORD, '10.0.1.1')).statusCode).toBe(429);
    expect((await signIn(ADMIN_EMAIL, ADMIN_PASSWORD, '10.0.1.2')).statusCode).toBe(200);
  });

  it('guessing spread over many addresses meets the per-account ceiling', async () => {
    const email = 'spread@test.local';
    for (let i = 0; i < 12; i++) expect((await signIn(email, 'guess', `10.0.2.${i + 1}`)).statusCode).toBe(401);
    expect((await signIn(email, 'guess', '10.0.2.200')).statusCode).toBe(429);
  });

  it('a member without sign-in (can_sign_in false) is refused like a wrong password, even with a password', async () => {
    await t.database.query(`update users set can_sign_in = false where email = $1`, [ADMIN_EMAIL]);
    try {
      const res = await signIn(ADMIN_EMAIL, ADMIN_PASSWORD, '10.0.3.1');
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe('Invalid email or password');
    } finally {
      await t.database.query(`update users set can_sign_in = true where email = $1`, [ADMIN_EMAIL]);
    }
  });
});
