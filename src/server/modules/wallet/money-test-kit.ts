import { randomUUID } from 'node:crypto';
import type { Database } from '../../db/client.ts';
import { bearer, type TestContext } from '../../test/harness.ts';
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

/** A signed-in account of role User: it holds no permission, so every money route answers 403. */
export async function tokenWithoutPermissions(t: TestContext): Promise<string> {
  serial += 1;
  const n = `${Date.now()}${serial}`;
  const res = await t.app.inject({
    method: 'POST', url: '/api/register',
    payload: { name: `noperm${n}`, fullName: 'No Permission', email: `noperm${n}@test.local`, phone: `8${n.slice(-9)}`, address: 'Pune', password: 'no-permission-1' },
  });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.body}`);
  return res.json().token as string;
}

export const moneyHeaders = (token: string, key: string = randomUUID()) => ({ ...bearer(token), 'idempotency-key': key });

export async function balanceOf(database: Database, userId: number): Promise<number> {
  const [row] = await database.query<{ b: string }>('select balance_paise::text as b from users where user_id = $1', [userId]);
  return Number(row.b);
}
