import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../lib/tokens.ts';
import { accountWithPermissions } from '../../test/accounts.ts';
import { bearer, caller, createTestApp, type TestContext } from '../../test/harness.ts';

/**
 * Issue 22, finding 10, as the attacker did it over HTTP: a roles_manage-only account edits roles
 * that outrank it; look-alike role names; a role that starts requiring two-factor.
 */
let t: TestContext;
let admin: ReturnType<typeof caller>;
beforeAll(async () => {
  t = await createTestApp();
  admin = caller(t, bearer(await t.login()));
});
afterAll(() => t.close());

const roleRow = async (roleId: number) =>
  (await t.database.query<{ name: string; status: boolean; two_factor_required: boolean }>(
    'select name, status, two_factor_required from roles where role_id = $1', [roleId]))[0];

/** A role made by the administrator, holding these permissions. */
async function roleHolding(name: string, permissions: string[], extra: Record<string, unknown> = {}) {
  const created = await admin('POST', '/api/CreateRoles', { name, ...extra });
  expect(created.statusCode).toBe(201);
  const roleId: number = created.json().data.roleId;
  const ids = (await t.database.query<{ permission_id: number }>(
    'select permission_id from permissions where name = any($1::text[])', [permissions])).map((r) => r.permission_id);
  expect((await admin('POST', '/api/role-permissions/createPermissionForRole', { roleId, permissionIds: ids })).statusCode).toBe(201);
  return roleId;
}

describe('the outranking rule covers roles (finding 10)', () => {
  it('a roles_manage-only account cannot rename, re-activate, drop two-factor from or delete a role holding permissions it lacks', async () => {
    const treasury = await roleHolding('Treasury', ['wallet_manage', 'money_approve'], { twoFactorRequired: true });
    // The administrator switches it off.
    expect((await admin('PUT', `/api/updateRole/${treasury}`, { name: 'Treasury', status: false })).statusCode).toBe(200);

    const attacker = caller(t, bearer(await accountWithPermissions(t.database, ['roles_view', 'roles_manage'])));
    const attempts = [
      { name: 'Treasury', status: true },
      { name: 'Treasury Desk', status: false },
      { name: 'Treasury', status: false, twoFactorRequired: false },
    ];
    for (const body of attempts) {
      const res = await attacker('PUT', `/api/updateRole/${treasury}`, body);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        success: false,
        message: 'You can only change a role whose permissions you hold yourself; Treasury also grants money_approve, wallet_manage',
      });
    }
    const removed = await attacker('DELETE', `/api/deleteRole/${treasury}`);
    expect(removed.statusCode).toBe(403);
    expect(await roleRow(treasury)).toEqual({ name: 'Treasury', status: false, two_factor_required: true });

    // The Admin role (every permission) is out of its reach as well.
    const [adminRole] = await t.database.query<{ role_id: number }>(`select role_id from roles where name = 'Admin'`);
    expect((await attacker('PUT', `/api/updateRole/${adminRole.role_id}`, { name: 'Admin', status: true, twoFactorRequired: true })).statusCode).toBe(403);

    // A role within its own permissions it still manages, and the administrator manages them all.
    const viewers = await roleHolding('Role Viewers', ['roles_view']);
    expect((await attacker('PUT', `/api/updateRole/${viewers}`, { name: 'Role Readers', status: false })).statusCode).toBe(200);
    expect((await attacker('DELETE', `/api/deleteRole/${viewers}`)).statusCode).toBe(200);
    expect((await admin('PUT', `/api/updateRole/${treasury}`, { name: 'Treasury', status: true })).statusCode).toBe(200);
  });

  it('sending a role back unchanged is not a change and needs no outranking', async () => {
    const desk = await roleHolding('Payments Desk', ['wallet_manage']);
    const attacker = caller(t, bearer(await accountWithPermissions(t.database, ['roles_manage'])));
    expect((await attacker('PUT', `/api/updateRole/${desk}`, { name: 'Payments Desk', status: true })).statusCode).toBe(200);
  });
});

describe('taking permissions away, and one\u2019s own second factor, are levers too', () => {
  const rpRow = async (roleId: number) =>
    (await t.database.query<{ permission_ids: number[]; status: boolean }>(
      'select permission_ids, status from role_permissions where role_id = $1', [roleId]))[0];

  it('a roles_manage-only account cannot shrink, switch off or delete the set of a role that outranks it', async () => {
    const approvers = await roleHolding('Approvers Desk', ['wallet_view', 'money_approve'], { twoFactorRequired: true });
    const before = await rpRow(approvers);
    const [kept] = await t.database.query<{ permission_id: number }>(`select permission_id from permissions where name = 'wallet_view'`);
    const [approve] = await t.database.query<{ permission_id: number }>(`select permission_id from permissions where name = 'money_approve'`);
    const attacker = caller(t, bearer(await accountWithPermissions(t.database, ['roles_view', 'roles_manage', 'wallet_view'])));
    const message = 'You can only take permissions from a role whose permissions you hold yourself; Approvers Desk also grants money_approve';
    for (const [method, url, body] of [
      ['DELETE', `/api/role-permissions/deleteRoleById/${approvers}`, undefined],
      ['DELETE', `/api/role-permissions/removePermissionFromRole/${approvers}/${approve.permission_id}`, undefined],
      ['PUT', `/api/role-permissions/updatePermissionForRole/${approvers}`, { permissionIds: [kept.permission_id] }],
      ['PUT', `/api/role-permissions/updatePermissionForRole/${approvers}`, { status: false }],
    ] as const) {
      const res = await attacker(method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toEqual({ success: false, message });
    }
    expect(await rpRow(approvers)).toEqual(before);
    // So the role still outranks it, and its two-factor requirement stays.
    expect((await attacker('PUT', `/api/updateRole/${approvers}`, { name: 'Approvers Desk', status: true, twoFactorRequired: false })).statusCode).toBe(403);
    expect((await roleRow(approvers)).two_factor_required).toBe(true);
    // A set within its own permissions it still shrinks and deletes; the administrator any.
    const viewers = await roleHolding('Wallet Viewers', ['wallet_view', 'roles_view']);
    expect((await attacker('DELETE', `/api/role-permissions/removePermissionFromRole/${viewers}/${kept.permission_id}`)).statusCode).toBe(200);
    expect((await attacker('DELETE', `/api/role-permissions/deleteRoleById/${viewers}`)).statusCode).toBe(200);
    expect((await admin('DELETE', `/api/role-permissions/removePermissionFromRole/${approvers}/${approve.permission_id}`)).statusCode).toBe(200);
  });

  it('nobody drops the two-factor requirement of their own role', async () => {
    const token = await accountWithPermissions(t.database, ['roles_view', 'roles_manage']);
    const self = caller(t, bearer(token));
    const setup = await self('POST', '/api/account/two-factor/setup');
    const { secret } = setup.json().data as { secret: string };
    t.secrets.tokens.add(secret);
    const code = TOTP.generate({ secret: Secret.fromBase32(secret) });
    expect((await self('POST', '/api/account/two-factor/confirm', { code })).statusCode).toBe(200);
    const [own] = await t.database.query<{ role_id: number; name: string }>(
      'select r.role_id, r.name from sessions s join users u on u.user_id = s.user_id join roles r on r.role_id = u.role_id where s.token_hash = $1',
      [hashToken(token)]);
    expect((await admin('PUT', `/api/updateRole/${own.role_id}`, { name: own.name, status: true, twoFactorRequired: true })).statusCode).toBe(200);

    const res = await self('PUT', `/api/updateRole/${own.role_id}`, { name: own.name, status: true, twoFactorRequired: false });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ success: false, message: 'You cannot drop the two-factor requirement of your own role; ask another administrator to do it' });
    expect((await roleRow(own.role_id)).two_factor_required).toBe(true);
    // Renaming it is no such lever; another administrator may drop the requirement.
    expect((await self('PUT', `/api/updateRole/${own.role_id}`, { name: `${own.name} desk`, status: true })).statusCode).toBe(200);
    expect((await admin('PUT', `/api/updateRole/${own.role_id}`, { name: `${own.name} desk`, status: true, twoFactorRequired: false })).statusCode).toBe(200);
  });
});

describe('role names are unique after normalisation (finding 10)', () => {
  const lookalikes = ['admin', 'ADMIN', 'Adm\u0131n', 'Admin\u200b', '\u0410dmin', ' ad\uFF4Din ', 'A\u00addmin'];

  it('refuses a new role named like Admin with 409 and a clear message, and creates none', async () => {
    const before = (await t.database.query('select role_id from roles')).length;
    for (const name of lookalikes) {
      const res = await admin('POST', '/api/CreateRoles', { name });
      expect(res.statusCode, name).toBe(409);
      expect(res.json().message, name).toMatch(/^A role named Admin already exists/);
    }
    expect((await t.database.query('select role_id from roles')).length).toBe(before);
  });

  it('refuses renaming another role to a look-alike of an existing name', async () => {
    const created = await admin('POST', '/api/CreateRoles', { name: 'Helpdesk' });
    expect(created.statusCode).toBe(201);
    const helpdesk: number = created.json().data.roleId;
    for (const name of [...lookalikes, 'us\u0435r']) {
      const res = await admin('PUT', `/api/updateRole/${helpdesk}`, { name, status: true });
      expect(res.statusCode, name).toBe(409);
      expect(res.json().message, name).toMatch(/^A role named (Admin|User) already exists/);
    }
    expect((await roleRow(helpdesk)).name).toBe('Helpdesk');
    // Its own name in another case is still its own.
    expect((await admin('PUT', `/api/updateRole/${helpdesk}`, { name: 'HELPDESK', status: true })).statusCode).toBe(200);
  });

  it('two look-alike names created at the same moment: one is created, the other refused with 409, never a 500', async () => {
    const [a, b] = await Promise.all([
      admin('POST', '/api/CreateRoles', { name: 'Auditors' }),
      admin('POST', '/api/CreateRoles', { name: 'AUDITORS\u200b' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    const refused = a.statusCode === 409 ? a : b;
    expect(refused.json().message).toMatch(/^A role named (Auditors|AUDITORS\u200b) already exists/);
    expect(await t.database.query(`select name from roles where name_key = 'auditors'`)).toHaveLength(1);
  });
});

describe('requiring two-factor for a role (finding 10)', () => {
  it('sends its open sessions without a second factor to enrolment on their next request; two-factor accounts are unaffected', async () => {
    const token = await accountWithPermissions(t.database, ['dashboard_view', 'roles_view']);
    const other = await accountWithPermissions(t.database, ['dashboard_view', 'roles_view']);
    const [mine] = await t.database.query<{ role_id: number; user_id: number }>(
      `select u.role_id, u.user_id from users u join sessions s on s.user_id = u.user_id
        where s.token_hash = $1`, [hashToken(token)]);
    // The second account holds the same role and has two-factor on.
    const [theirs] = await t.database.query<{ user_id: number }>(
      `select u.user_id from users u join sessions s on s.user_id = u.user_id
        where s.token_hash = $1`, [hashToken(other)]);
    await t.database.query('update users set role_id = $1 where user_id = $2', [mine.role_id, theirs.user_id]);
    await t.database.query(`insert into two_factor (user_id, secret, enabled_at) values ($1, 'JBSWY3DPEHPK3PXP', now())`, [theirs.user_id]);

    const session = caller(t, bearer(token));
    const twoFactorSession = caller(t, bearer(other));
    expect((await session('GET', '/api/GetAllRoles')).statusCode).toBe(200);

    const [role] = await t.database.query<{ name: string }>('select name from roles where role_id = $1', [mine.role_id]);
    const flagged = await admin('PUT', `/api/updateRole/${mine.role_id}`, { name: role.name, status: true, twoFactorRequired: true });
    expect(flagged.statusCode).toBe(200);

    const next = await session('GET', '/api/GetAllRoles');
    expect(next.statusCode).toBe(403);
    expect(next.json()).toEqual({ success: false, message: 'Set up two-factor sign-in before you continue' });
    const me = await session('GET', '/api/users/me');
    expect(me.statusCode).toBe(200);
    expect(me.json().data).toMatchObject({ twoFactorSetupRequired: true, permissions: [] });
    expect((await session('POST', '/api/account/two-factor/setup')).statusCode).toBe(200);

    expect((await twoFactorSession('GET', '/api/GetAllRoles')).statusCode).toBe(200);
  });
});
