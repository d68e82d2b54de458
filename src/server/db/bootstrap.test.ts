import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, createTestApp, type TestContext } from '../test/harness.ts';
import { ensureAdmin } from './bootstrap.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ members: 5 });
});
afterAll(() => t.close());

const never = () => {
  throw new Error('no password should be generated');
};
const accounts = (email: string) =>
  t.database.query<{ user_id: number; phone: string; username: string | null; role: string; deleted: boolean }>(
    `select u.user_id, u.phone, u.username, r.name as role, u.deleted_at is not null as deleted
       from users u join roles r on r.role_id = u.role_id where u.email = $1`,
    [email],
  );

describe('bootstrap administrator', () => {
  it('leaves the account with ADMIN_EMAIL as it is', async () => {
    expect(await ensureAdmin(t.database, ADMIN_EMAIL, 'another-password', never)).toEqual({ created: false, existing: 'this' });
    expect(await t.login(ADMIN_EMAIL)).toBeTruthy(); // the password was not changed
  });

  it('creates nobody when another administrator runs the database (the default ADMIN_EMAIL on a bootstrapped database)', async () => {
    const result = await ensureAdmin(t.database, 'admin@backoffice.local', undefined, never);
    expect(result).toEqual({ created: false, existing: 'others', administrators: 1 });
    expect(await accounts('admin@backoffice.local')).toEqual([]);
  });

  it('creates one when no live administrator is left, on the first free phone and without the taken username', async () => {
    // The only administrator is deleted (keeping phone 9000000000's row and username "admin"),
    // and a member holds the next phone.
    await t.database.query(`update users set deleted_at = now() where email = $1`, [ADMIN_EMAIL]);
    const [member] = await t.database.query<{ user_id: number }>(
      `select user_id from users where email <> $1 and deleted_at is null order by user_id limit 1`,
      [ADMIN_EMAIL],
    );
    await t.database.query(`update users set phone = '9000000000' where user_id = $1`, [member.user_id]);

    const result = await ensureAdmin(t.database, 'second-admin@test.local', 'second-admin-password', never);
    expect(result).toEqual({ created: true, generatedPassword: undefined });
    expect(await accounts('second-admin@test.local')).toEqual([
      expect.objectContaining({ phone: '9000000001', username: null, role: 'Admin', deleted: false }),
    ]);
    const login = await t.app.inject({
      method: 'POST', url: '/api/Adminlogin', payload: { email: 'second-admin@test.local', password: 'second-admin-password' },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json().data.user.role).toBe('Admin');
  });

  it('generates a password when none is given, and a second start creates nobody more', async () => {
    await t.database.query(`update users set deleted_at = now() where email = 'second-admin@test.local'`);
    const first = await ensureAdmin(t.database, 'third-admin@test.local', undefined, () => 'generated-password-1');
    expect(first).toEqual({ created: true, generatedPassword: 'generated-password-1' });
    expect(await ensureAdmin(t.database, 'fourth-admin@test.local', undefined, never)).toEqual({
      created: false, existing: 'others', administrators: 1,
    });
  });
});
