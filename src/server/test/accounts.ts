import { randomBytes } from 'node:crypto';
import type { Database } from '../db/client.ts';
import { hashToken } from '../lib/tokens.ts';
import { insertUser } from '../modules/users/users.repository.ts';

let serial = 0;

/**
 * A signed-in account whose role holds exactly these permissions, written straight into the
 * database (role, role_permissions, user, session) so no route under test takes part in making it.
 */
export async function accountWithPermissions(database: Database, permissionNames: readonly string[]): Promise<string> {
  serial += 1;
  const stamp = `${process.pid}${Date.now()}${serial}`;
  const [role] = await database.query<{ role_id: number }>(
    'insert into roles (name, status) values ($1, true) returning role_id',
    [`matrix-${stamp}`],
  );
  await database.query(
    `insert into role_permissions (role_id, role_name, permission_ids, status)
     select $1, $2, coalesce(array_agg(permission_id order by permission_id), '{}'), true
       from permissions where name = any($3::text[])`,
    [role.role_id, `matrix-${stamp}`, permissionNames],
  );
  const user = await insertUser(database.db, {
    fullName: `Matrix ${stamp}`, email: `matrix${stamp}@test.local`, phone: `6${stamp.slice(-9)}`, level: 1, roleId: role.role_id, canSignIn: true,
  });
  return sessionFor(database, user.userId);
}

/** A fresh 12-hour session for an existing account; returns its bearer token. */
export async function sessionFor(database: Database, userId: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await database.query(
    `insert into sessions (token_hash, user_id, expires_at) values ($1, $2, now() + interval '12 hours')`,
    [hashToken(token), userId],
  );
  return token;
}
