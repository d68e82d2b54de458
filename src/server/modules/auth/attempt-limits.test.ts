import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestContext } from '../../test/harness.ts';
import { insertUser } from '../users/users.repository.ts';
import { MAX_WRONG_CODES } from './attempts.ts';
import { addressKey, secondsUntilFree } from './attempts.ts';
import { accountDelaySeconds, INVALID_CODE } from './auth.service.ts';
import { hashPassword } from './passwords.ts';

/**
 * Issue 22, finding 6: every attempt limit reserves its attempt atomically before anything is
 * checked, so a burst of concurrent guesses checks at most the limit (the rest answer 429).
 */
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ config: { loginMaxFailuresPerEmail: 5, loginMaxFailuresPerIp: 1000, loginMaxFailuresPerAccount: 20, loginAccountDelaySeconds: 60 } });
});
afterAll(() => t.close());

const PASSWORD = 'limits-password-1';
let serial = 0;

const codeAt = (secret: string, steps = 0) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + steps * 30_000 });

async function staff() {
  serial += 1;
  const email = `limits${serial}@test.local`;
  const user = await insertUser(t.database.db, {
    fullName: `Limits ${serial}`, email, phone: `83000000${10 + serial}`, level: 1, canSignIn: true, passwordHash: await hashPassword(PASSWORD),
  });
  const signIn = await t.app.inject({ method: 'POST', url: '/api/Adminlogin', payload: { email, password: PASSWORD }, remoteAddress: `10.60.${serial}.1` });
  expect(signIn.statusCode).toBe(200);
  return { email, userId: user.userId, token: signIn.json().data.token as string };
}

async function withTwoFactor() {
  const account = await staff();
  const setup = await t.app.inject({ method: 'POST', url: '/api/account/two-factor/setup', headers: bearer(account.token) });
  const { secret } = setup.json().data as { secret: string };
  t.secrets.tokens.add(secret);
  const confirm = await t.app.inject({
    method: 'POST', url: '/api/account/two-factor/confirm', headers: bearer(account.token), payload: { code: codeAt(secret) },
  });
  expect(confirm.statusCode).toBe(200);
  return { ...account, secret };
}

/** A code that is not the account's for any step of the window. */
function wrongCode(secret: string): string {
  const near = new Set([-1, 0, 1].map((s) => codeAt(secret, s)));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!near.has(code)) return code;
  }
}

const burst = <T>(n: number, make: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => make(i)));

describe('concurrent guesses check at most the limit', () => {
  it('200 concurrent wrong codes with the right password from one address: at most LOGIN_MAX_FAILURES_PER_EMAIL checked, the rest 429', async () => {
    const { email, secret } = await withTwoFactor();
    const code = wrongCode(secret);
    const answers = await burst(200, () => t.app.inject({
      method: 'POST', url: '/api/Adminlogin', remoteAddress: '10.61.0.1', payload: { email, password: PASSWORD, code },
    }));
    const checked = answers.filter((r) => r.statusCode === 401 && r.json().message === INVALID_CODE);
    expect(checked.length).toBeGreaterThan(0);
    expect(checked.length).toBeLessThanOrEqual(t.app.config.loginMaxFailuresPerEmail);
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(200 - checked.length);
    expect(answers.find((r) => r.statusCode === 429)!.headers['retry-after']).toMatch(/^\d+$/);
  });

  it('the right password and wrong codes from 50 addresses at once: at most MAX_WRONG_CODES codes checked for the account', async () => {
    const { email, secret } = await withTwoFactor();
    const code = wrongCode(secret);
    const answers = await burst(50, (i) => t.app.inject({
      method: 'POST', url: '/api/Adminlogin', remoteAddress: `10.70.${i}.1`, payload: { email, password: PASSWORD, code },
    }));
    const checked = answers.filter((r) => r.statusCode === 401 && r.json().message === INVALID_CODE);
    expect(checked.length).toBeGreaterThan(0);
    expect(checked.length).toBeLessThanOrEqual(MAX_WRONG_CODES);
    const refused = answers.filter((r) => r.statusCode === 429);
    expect(refused).toHaveLength(50 - checked.length);
    expect(refused[0].json().message).toMatch(/^Too many wrong two-factor codes\. Please try again in \d+ (minute|second)s?\.$/);
    // A fresh address with the right code waits too: the count is the account's, not the address's.
    const late = await t.app.inject({
      method: 'POST', url: '/api/Adminlogin', remoteAddress: '10.71.0.1', payload: { email, password: PASSWORD, code: codeAt(secret) },
    });
    expect(late.statusCode).toBe(429);
  });

  it('20 addresses × 50 concurrent wrong passwords: at most the account threshold plus one per fresh address are checked', async () => {
    const { email } = await staff();
    const answers = await burst(1000, (i) => t.app.inject({
      method: 'POST', url: '/api/Adminlogin', remoteAddress: `10.62.${i % 20}.1`, payload: { email, password: 'wrong-guess-123' },
    }));
    const checked = answers.filter((r) => r.statusCode === 401).length;
    expect(answers.filter((r) => r.statusCode !== 401 && r.statusCode !== 429)).toEqual([]);
    // Past the threshold an address that failed waits; one that has not failed is still heard once.
    expect(checked).toBeLessThanOrEqual(t.app.config.loginMaxFailuresPerAccount + 20);
    expect(checked).toBeGreaterThanOrEqual(20);
  }, 180_000);

  it('two-factor enrolment: 150 concurrent wrong codes, at most 5 checked', async () => {
    const { token } = await staff();
    const setup = await t.app.inject({ method: 'POST', url: '/api/account/two-factor/setup', headers: bearer(token) });
    const { secret } = setup.json().data as { secret: string };
    t.secrets.tokens.add(secret);
    const code = wrongCode(secret);
    const answers = await burst(150, () => t.app.inject({
      method: 'POST', url: '/api/account/two-factor/confirm', headers: bearer(token), payload: { code },
    }));
    const checked = answers.filter((r) => r.statusCode === 400 && r.json().message === INVALID_CODE).length;
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(MAX_WRONG_CODES);
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(150 - checked);
  });

  it('turning two-factor off: 100 concurrent wrong codes, at most 5 checked, and it stays on', async () => {
    const { token, secret, userId } = await withTwoFactor();
    const code = wrongCode(secret);
    const answers = await burst(100, () => t.app.inject({ method: 'DELETE', url: '/api/account/two-factor', headers: bearer(token), payload: { code } }));
    const checked = answers.filter((r) => r.statusCode === 400).length;
    expect(checked).toBeLessThanOrEqual(MAX_WRONG_CODES);
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(100 - checked);
    const [row] = await t.database.query<{ on: boolean }>('select enabled_at is not null as on from two_factor where user_id = $1', [userId]);
    expect(row.on).toBe(true);
  });

  it('changing one\u2019s email on /account: 100 concurrent wrong passwords, at most 5 checked', async () => {
    const { token } = await staff();
    const answers = await burst(100, () => t.app.inject({
      method: 'PUT', url: '/api/account/email', headers: bearer(token), payload: { email: 'thief@example.com', password: 'not-the-password' },
    }));
    const checked = answers.filter((r) => r.statusCode === 400).length;
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(5);
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(100 - checked);
  });

  it('forgot password: 100 concurrent calls from one address, at most RESET_MAX_PER_IP answered and RESET_MAX_PER_EMAIL mails sent', async () => {
    const { email } = await staff();
    const before = t.mail.length;
    const answers = await burst(100, () => t.app.inject({
      method: 'POST', url: '/api/users/forgot-password', remoteAddress: '10.63.0.1', payload: { email },
    }));
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(t.app.config.resetMaxPerIp);
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(100 - t.app.config.resetMaxPerIp);
    expect(t.mail.length - before).toBe(t.app.config.resetMaxPerEmail);
  });
});

describe('the rules in numbers', () => {
  it('the account delay starts at the threshold, doubles every further threshold of failures, and stops at the window', () => {
    const config = { loginMaxFailuresPerAccount: 10, loginAccountDelaySeconds: 60, loginWindowMinutes: 15 };
    expect([0, 9, 10, 19, 20, 30, 40, 50, 1000].map((n) => accountDelaySeconds(config, n))).toEqual([0, 0, 60, 60, 120, 240, 480, 900, 900]);
  });

  it('a full limit frees up when its oldest attempt that counts leaves the window', () => {
    expect(secondsUntilFree({ count: 4, newestAge: 1, ages: [40, 30, 20, 1] }, 5, 900)).toBe(0);
    expect(secondsUntilFree({ count: 5, newestAge: 1, ages: [40, 30, 20, 10, 1] }, 5, 900)).toBe(860);
    expect(secondsUntilFree({ count: 6, newestAge: 1, ages: [40, 30, 20, 10, 5, 1] }, 5, 900)).toBe(870);
  });

  it('counts an IPv6 address by its /64 network and an IPv4-mapped address as IPv4', () => {
    expect(addressKey('10.1.2.3')).toBe('10.1.2.3');
    expect(addressKey('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(addressKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2::99')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:DB8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });
});
