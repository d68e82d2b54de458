import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, caller, createTestApp, type TestContext } from '../../test/harness.ts';

// Issue 24 item 9: a 300-character name was cut to 100 by the form without a word. The server
// refuses a name over its limit with 400 and a message on the field, and stores nothing.
let t: TestContext;
let call: ReturnType<typeof caller>;
beforeAll(async () => {
  t = await createTestApp({ members: 3 });
  call = caller(t, bearer(await t.login()));
});
afterAll(() => t.close());

const long = 'N'.repeat(300);

async function refused(method: 'POST' | 'PUT', url: string, payload: object, field: string, message: string) {
  const res = await call(method, url, payload);
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json()).toMatchObject({ success: false, message });
  expect(res.json().errors).toEqual(expect.arrayContaining([expect.objectContaining({ field, message })]));
}

describe('names over their limit are refused, never cut', () => {
  it('members: full name over 100 characters on register and on edit', async () => {
    await refused('POST', '/api/users/register', { fullName: long, dob: '1990-01-01', email: 'long@test.local', phone: '9555511111' },
      'fullName', 'Full name must be at most 100 characters');
    const [m] = await t.database.query<{ user_id: number }>('select user_id from users where not can_sign_in limit 1');
    await refused('PUT', `/api/users/updateByUserId/${m.user_id}`, { fullName: long }, 'fullName', 'Full name must be at most 100 characters');
    // 100 is still fine.
    expect((await call('PUT', `/api/users/updateByUserId/${m.user_id}`, { fullName: 'N'.repeat(100) })).statusCode).toBe(200);
  });

  it('services, ranks and bank accounts', async () => {
    await refused('PUT', '/api/services/updateService/1', { serviceName: long, status: true }, 'serviceName', 'Service name must be at most 100 characters');
    await refused('POST', '/api/ranks/createRank', { name: long, status: true }, 'name', 'Rank name must be at most 50 characters');
    const [m] = await t.database.query<{ user_id: number }>('select user_id from users where not can_sign_in limit 1');
    await refused('POST', '/api/banks/createBankAccount', {
      userId: m.user_id, accountHolderName: long, accountNumber: '123456789012', ifsc: 'HDFC0000123', bank: 'HDFC Bank',
    }, 'accountHolderName', 'Account holder name must be at most 100 characters');
    const [{ n }] = await t.database.query<{ n: number }>(
      `select (select count(*) from users where length(full_name) > 100) + (select count(*) from services where length(service_name) > 100)
            + (select count(*) from ranks where length(name) > 50) + (select count(*) from bank_accounts where length(account_holder_name) > 100) as n`);
    expect(Number(n)).toBe(0);
  });
});
