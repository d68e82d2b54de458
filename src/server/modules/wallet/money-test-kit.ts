import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Database } from '../../db/client.ts';
import { bearer, plainAccount, signedInApp, type TestContext } from '../../test/harness.ts';
import { moneyInvariantViolations } from '../../lib/money-invariants.ts';
import { insertUser } from '../users/users.repository.ts';

let serial = 0;

/** A fresh member with an empty wallet, for the money tests. */
export async function newMember(database: Database, fullName = 'Wallet Member') {
  serial += 1;
  const stamp = `${Date.now()}${serial}`;
  const user = await insertUser(database.db, {
    fullName, email: `wallet${stamp}@test.local`, phone: `7${stamp.slice(-9)}`, level: 1,
  });
  return user.userId;
}

let plainAccounts = 0;

/** A signed-in account of role User (the harness's plainAccount): it holds no permission, so every money route answers 403. */
export async function tokenWithoutPermissions(t: TestContext): Promise<string> {
  plainAccounts += 1;
  return (await plainAccount(t, plainAccounts)).authorization.slice('Bearer '.length);
}

export const moneyHeaders = (token: string, key: string = randomUUID()) => ({ ...bearer(token), 'idempotency-key': key });

export async function balanceOf(database: Database, userId: number): Promise<number> {
  const [row] = await database.query<{ b: string }>('select balance_paise::text as b from users where user_id = $1', [userId]);
  return Number(row.b);
}

/** After each test of the file: no money invariant is broken (the check every money test file runs). */
export function moneyInvariantsAfterEach(database: () => Database) {
  afterEach(async () => {
    expect(await moneyInvariantViolations(database())).toEqual([]);
  });
}

/**
 * A money test file's server: signed in as the administrator (`signedInApp(options)`) before the
 * file's first test, closed after its last, the money invariants checked after every test. Its
 * fields (`t`, `token`, `headers`, `call`) are read inside the tests, once the server is up.
 */
export function moneyTestApp(options: Parameters<typeof signedInApp>[0] = {}) {
  const suite = {} as Awaited<ReturnType<typeof signedInApp>>;
  beforeAll(async () => {
    Object.assign(suite, await signedInApp(options));
  });
  afterAll(() => suite.t.close());
  moneyInvariantsAfterEach(() => suite.t.database);
  return suite;
}
