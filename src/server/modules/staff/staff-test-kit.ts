import { afterAll, beforeAll, expect } from 'vitest';
import { hashToken } from '../../lib/tokens.ts';
import { accountWithPermissions } from '../../test/accounts.ts';
import { ADMIN_EMAIL, bearer, createTestApp, type TestContext } from '../../test/harness.ts';

/** Shared by the staff route tests (staff.test.ts, staff-invitations.test.ts): each file gets its own app. */
export let t: TestContext;
export let admin: Record<string, string>;
export let adminId: number;
export let roleIds: Record<string, number>;

/** The staff tests' app: an administrator, roles Helpdesk (users_view), Supervisors (+ staff_manage) and Retired (inactive). */
export function setupStaffApp() {
beforeAll(async () => {
  t = await createTestApp({ config: { publicUrl: 'https://panel.example.test' } });
  admin = bearer(await t.login());
  const [me] = await t.database.query<{ user_id: number }>('select user_id from users where email = $1', [ADMIN_EMAIL]);
  adminId = Number(me.user_id);
  for (const [name, perms] of [['Helpdesk', ['users_view']], ['Supervisors', ['users_view', 'staff_manage']]] as const) {
    const created = await t.app.inject({ method: 'POST', url: '/api/CreateRoles', headers: admin, payload: { name, status: true } });
    const permIds = await t.database.query<{ permission_id: number }>('select permission_id from permissions where name = any($1::text[])', [perms]);
    await t.app.inject({
      method: 'POST', url: '/api/role-permissions/createPermissionForRole', headers: admin,
      payload: { roleId: created.json().data.roleId, permissionIds: permIds.map((p) => p.permission_id) },
    });
  }
  await t.app.inject({ method: 'POST', url: '/api/CreateRoles', headers: admin, payload: { name: 'Retired', status: false } });
  const rows = await t.database.query<{ name: string; role_id: number }>('select name, role_id from roles');
  roleIds = Object.fromEntries(rows.map((r) => [r.name, r.role_id]));
});
afterAll(() => t.close());
}

export const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers = admin) =>
  t.app.inject({ method, url: `/api${url}`, headers, payload });

let seq = 0;
export async function invite(roleName = 'Helpdesk', headers = admin) {
  seq += 1;
  const res = await call('POST', '/staff/invite', { fullName: `Staff Person ${seq}`, email: `staff${seq}@test.local`, roleId: roleIds[roleName] }, headers);
  expect(res.statusCode, res.body).toBe(201);
  return { member: res.json().data, link: t.mail.at(-1)!.link };
}

export const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

/** The invitee opens the link and chooses a password, then signs in. */
export async function accept(link: string, email: string, password = 'invitee-password-1'): Promise<string> {
  const set = await t.app.inject({ method: 'POST', url: '/api/users/reset-password', payload: { token: tokenOf(link), newPassword: password } });
  expect(set.statusCode, set.body).toBe(200);
  return t.login(email, password);
}

export const userIdOf = async (token: string) =>
  Number((await t.database.query<{ user_id: number }>('select user_id from sessions where token_hash = $1', [hashToken(token)]))[0].user_id);

export const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/users/me', headers: bearer(token) });

/** An account whose role holds every permission there is, but which is not the Admin role. */
export async function allPermissionsEditor(): Promise<{ headers: Record<string, string>; userId: number }> {
  const names = (await t.database.query<{ name: string }>('select name from permissions')).map((p) => p.name);
  const token = await accountWithPermissions(t.database, names);
  return { headers: bearer(token), userId: await userIdOf(token) };
}
