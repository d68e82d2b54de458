import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, createTestApp, type TestContext } from '../../test/harness.ts';
import { insertUser } from '../users/users.repository.ts';
import { waitText } from './attempts.ts';
import { hashPassword } from './passwords.ts';

/** The code an authenticator shows `steps` 30-second steps from now. */
const codeAt = (secret: string, steps = 0) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + steps * 30_000 });

let t: TestContext;
beforeAll(async () => {
  // The shipped limits: 5 per email and address, 30 per address, a 60-second first wait; the account is slowed after 12 failures here (10 shipped).
  t = await createTestApp({ config: { loginMaxFailuresPerEmail: 5, loginMaxFailuresPerIp: 30, loginMaxFailuresPerAccount: 12, loginAccountDelaySeconds: 60 } });
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

  it('guessing spread over many addresses slows the account for the addresses that failed, never for a fresh one', async () => {
    const email = 'spread@test.local';
    for (let i = 0; i < 12; i++) expect((await signIn(email, 'guess', `10.0.2.${i + 1}`)).statusCode).toBe(401);
    // 12 failures: an address that failed waits LOGIN_ACCOUNT_DELAY_SECONDS after its failure.
    const slowed = await signIn(email, 'guess', '10.0.2.1');
    expect(slowed.statusCode).toBe(429);
    const wait = Number(slowed.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(slowed.json().message).toBe(`Too many failed sign-in attempts. Please try again in ${waitText(wait)}.`);
    // A fresh address is still heard.
    expect((await signIn(email, 'guess', '10.0.2.200')).statusCode).toBe(401);
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

describe('issue 22 finding 7: failures from other addresses never lock the owner out', () => {
  /** A staff account with its own password, optionally with two-factor on (enrolled through the API). */
  async function owner(n: number, twoFactor: boolean) {
    const email = `owner${n}@test.local`;
    const password = `owner-password-${n}`;
    await insertUser(t.database.db, {
      fullName: `Owner ${n}`, email, phone: `82000000${10 + n}`, level: 1, canSignIn: true, passwordHash: await hashPassword(password),
    });
    if (!twoFactor) return { email, password, secret: null };
    const token = (await signIn(email, password, `10.7.${n}.1`)).json().data.token as string;
    const setup = await t.app.inject({ method: 'POST', url: '/api/account/two-factor/setup', headers: bearer(token) });
    const { secret } = setup.json().data as { secret: string };
    t.secrets.tokens.add(secret);
    const confirm = await t.app.inject({
      method: 'POST', url: '/api/account/two-factor/confirm', headers: bearer(token), payload: { code: codeAt(secret) },
    });
    expect(confirm.statusCode).toBe(200);
    return { email, password, secret };
  }

  it.each([false, true])('20 addresses × 5 wrong passwords, then the owner from a fresh address signs in (two-factor %s)', async (twoFactor) => {
    const { email, password, secret } = await owner(twoFactor ? 2 : 1, twoFactor);
    const net = twoFactor ? 21 : 20;
    for (let a = 1; a <= 20; a++) {
      const answers = await Promise.all(Array.from({ length: 5 }, () => signIn(email, 'attacker-guess', `10.${net}.${a}.9`)));
      for (const res of answers) expect([401, 429]).toContain(res.statusCode);
    }
    const [{ n }] = await t.database.query<{ n: number }>(`select count(*)::int as n from login_failures where key = $1`, [`login-email:${email}`]);
    expect(n).toBeGreaterThanOrEqual(t.app.config.loginMaxFailuresPerAccount);
    // The attacker's own addresses are slowed, with the right password too…
    const attacker = await signIn(email, password, `10.${net}.1.9`);
    expect(attacker.statusCode).toBe(429);
    expect(Number(attacker.headers['retry-after'])).toBeGreaterThan(0);
    // …but the owner, from an address that has not failed, gets in.
    const res = await t.app.inject({
      method: 'POST', url: '/api/Adminlogin', remoteAddress: `10.${net}.99.1`,
      // The next step's code: later than the one that confirmed two-factor (a code is used once), and
      // within the window whether or not the 30 s step turns before the server checks it.
      payload: { email, password, ...(secret ? { code: codeAt(secret, 1) } : {}) },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.user.email).toBe(email);
  });
});
