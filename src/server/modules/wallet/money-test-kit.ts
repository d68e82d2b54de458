import { randomUUID } from 'node:crypto';
import { afterEach, expect } from 'vitest';
import type { Database } from '../../db/client.ts';
import { bearer, plainAccount, type TestContext } from '../../test/harness.ts';
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
