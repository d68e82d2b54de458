import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../auth/passwords.ts';
import { hashToken } from '../../lib/tokens.ts';
import { accountWithPermissions } from '../../test/accounts.ts';
import { bearer, caller, createTestApp, plainAccount, type TestContext } from '../../test/harness.ts';
import { insertUser } from '../users/users.repository.ts';

let t: TestContext;
let headers: Record<string, string>;
let call: ReturnType<typeof caller>;
let permId: Record<string, number>;
beforeAll(async () => {
  t = await createTestApp();
  headers = bearer(await t.login());
  call = caller(t, headers);
  const rows = await t.database.query<{ name: string; permission_id: number }>('select name, permission_id from permissions');
  permId = Object.fromEntries(rows.map((r) => [r.name, r.permission_id]));
});
afterAll(() => t.close());

const list = async () => (await call('GET', '/api/role-permissions/getAllRolePermissions')).json().data as {
  roleId: number; roleName: string; permissionName: string; permissionIds: number[]; status: boolean;
}[];

async function newRole(name: string): Promise<number> {
  return (await call('POST', '/api/CreateRoles', { name, status: true })).json().data.roleId;
}

describe('role permissions API', () => {
  it('lists one record per role with the spec fields', async () => {
    const res = await call('GET', '/api/role-permissions/getAllRolePermissions');
    expect(res.statusCode).toBe(200);
    expect(res.json().data[0]).toEqual({
      _id: expect.any(String), roleId: expect.any(Number), roleName: 'Admin', permissionName: 'All permissions',
      permissionIds: expect.any(Array), status: true, createdAt: expect.any(String),
    });
  });

  it('creates a record (201), refuses a second for the same role (409), unknown ids (400 naming them) and unknown roles', async () => {
    const roleId = await newRole('Editors');
    const res = await call('POST', '/api/role-permissions/createPermissionForRole', {
      roleId, roleName: 'Editors', permissionName: 'Editing', permissionIds: [permId.users_edit, permId.users_view, permId.users_view], status: true,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      success: true, message: 'Role permission created successfully',
      data: { roleId, roleName: 'Editors', permissionName: 'Editing', permissionIds: [permId.users_view, permId.users_edit].sort((a, b) => a - b) },
    });
    const again = await call('POST', '/api/role-permissions/createPermissionForRole', { roleId, permissionIds: [permId.users_view] });
    expect(again.statusCode).toBe(409);
    const other = await newRole('Viewers');
    const unknown = await call('POST', '/api/role-permissions/createPermissionForRole', { roleId: other, permissionIds: [permId.users_view, 99998, 99999] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('Unknown permission IDs: 99998, 99999');
    expect((await call('POST', '/api/role-permissions/createPermissionForRole', { roleId: 987654, permissionIds: [1] })).statusCode).toBe(400);
    const none = await call('POST', '/api/role-permissions/createPermissionForRole', { roleId: other, permissionIds: [] });
    expect(none.statusCode).toBe(400);
    expect((await call('POST', '/api/role-permissions/createPermissionForRole', { roleId: other, permissionIds: ['x'] })).statusCode).toBe(400);
    expect((await list()).filter((r) => r.roleId === roleId)).toHaveLength(1);
  });

  it('updates (the toggle sends only permissionIds and status), removes one permission, deletes the whole record', async () => {
    const roleId = await newRole('Toggled');
    await call('POST', '/api/role-permissions/createPermissionForRole', { roleId, permissionIds: [permId.users_view, permId.reports_view] });
    const toggled = await call('PUT', `/api/role-permissions/updatePermissionForRole/${roleId}`, { permissionIds: [permId.users_view, permId.reports_view], status: false });
    expect(toggled.statusCode).toBe(200);
    expect(toggled.json()).toMatchObject({ message: 'Role permission updated successfully', data: { status: false, permissionName: 'Permission Group' } });
    const renamed = await call('PUT', `/api/role-permissions/updatePermissionForRole/${roleId}`, { permissionName: 'Readers', status: true });
    expect(renamed.json().data).toMatchObject({ permissionName: 'Readers', status: true, permissionIds: [permId.users_view, permId.reports_view].sort((a, b) => a - b) });
    expect((await call('PUT', `/api/role-permissions/updatePermissionForRole/${roleId}`, { permissionIds: [424242] })).json().message).toBe('Unknown permission ID: 424242');
    expect((await call('PUT', '/api/role-permissions/updatePermissionForRole/777777', { status: true })).statusCode).toBe(404);

    const removed = await call('DELETE', `/api/role-permissions/removePermissionFromRole/${roleId}/${permId.reports_view}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ message: 'Permission removed from role successfully', data: { permissionIds: [permId.users_view] } });
    const notThere = await call('DELETE', `/api/role-permissions/removePermissionFromRole/${roleId}/${permId.reports_view}`);
    expect(notThere.statusCode).toBe(404);
    expect(notThere.json().message).toBe(`Permission ${permId.reports_view} is not assigned to role ${roleId}`);

    const deleted = await call('DELETE', `/api/role-permissions/deleteRoleById/${roleId}`);
    expect(deleted.json()).toEqual({ success: true, message: 'Role permissions deleted successfully' });
    expect((await list()).some((r) => r.roleId === roleId)).toBe(false);
    expect((await call('DELETE', `/api/role-permissions/deleteRoleById/${roleId}`)).statusCode).toBe(404);
    const logs = await t.database.query<{ action: string }>(
      `select action from audit_log where entity = 'role_permission' and entity_id = $1 order by id`, [String(roleId)],
    );
    expect(logs.map((l) => l.action)).toEqual(['create', 'update', 'update', 'remove_permission', 'delete']);
  });

  it('protects the Admin record: no deactivation, no removal, no deletion', async () => {
    const admin = (await list()).find((r) => r.roleName === 'Admin')!;
    const off = await call('PUT', `/api/role-permissions/updatePermissionForRole/${admin.roleId}`, { permissionIds: admin.permissionIds, status: false });
    expect(off.statusCode).toBe(409);
    expect(off.json().message).toMatch(/Admin role always holds every permission/);
    expect((await call('PUT', `/api/role-permissions/updatePermissionForRole/${admin.roleId}`, { permissionIds: admin.permissionIds.slice(1) })).statusCode).toBe(409);
    expect((await call('DELETE', `/api/role-permissions/removePermissionFromRole/${admin.roleId}/${admin.permissionIds[0]}`)).statusCode).toBe(409);
    expect((await call('DELETE', `/api/role-permissions/deleteRoleById/${admin.roleId}`)).statusCode).toBe(409);
    expect((await call('PUT', `/api/role-permissions/updatePermissionForRole/${admin.roleId}`, { permissionName: 'Everything' })).statusCode).toBe(200);
  });
});

describe('the server enforces what these screens edit, on the very next request', () => {
  it('granting a permission turns 403 into 200; revoking, deactivating and deleting turn it back', async () => {
    const roleId = await newRole('Ranks Reader');
    await insertUser(t.database.db, {
      username: 'reader', fullName: 'Role Reader', email: 'reader@test.local', phone: '9000000222',
      passwordHash: await hashPassword('reader-password'), roleId, canSignIn: true,
    });
    const reader = bearer(await t.login('reader@test.local', 'reader-password'));
    const permissionsPage = () => call('GET', '/api/permissions/getPermissions', undefined, reader);

    const denied = await permissionsPage();
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toMatch(/permissions_view is required/);

    await call('POST', '/api/role-permissions/createPermissionForRole', { roleId, permissionIds: [permId.permissions_view] });
    expect((await permissionsPage()).statusCode).toBe(200);
    // Holding permissions_view does not give permissions_manage.
    expect((await call('POST', '/api/permissions/createPermission', { module: 'Users', name: 'x', description: 'y' }, reader)).statusCode).toBe(403);

    await call('DELETE', `/api/role-permissions/removePermissionFromRole/${roleId}/${permId.permissions_view}`);
    expect((await permissionsPage()).statusCode).toBe(403);

    await call('PUT', `/api/role-permissions/updatePermissionForRole/${roleId}`, { permissionIds: [permId.permissions_view], status: true });
    expect((await permissionsPage()).statusCode).toBe(200);
    await call('PUT', `/api/role-permissions/updatePermissionForRole/${roleId}`, { permissionIds: [permId.permissions_view], status: false });
    expect((await permissionsPage()).statusCode).toBe(403);
    await call('PUT', `/api/role-permissions/updatePermissionForRole/${roleId}`, { status: true });
    expect((await permissionsPage()).statusCode).toBe(200);

    // A deactivated role holds nothing, whatever its record says.
    await call('PUT', `/api/updateRole/${roleId}`, { name: 'Ranks Reader', status: false });
    expect((await permissionsPage()).statusCode).toBe(403);
    await call('PUT', `/api/updateRole/${roleId}`, { name: 'Ranks Reader', status: true });
    expect((await permissionsPage()).statusCode).toBe(200);

    await call('DELETE', `/api/role-permissions/deleteRoleById/${roleId}`);
    expect((await permissionsPage()).statusCode).toBe(403);
    // The reader can't change its own permissions.
    const selfGrant = await call('POST', '/api/role-permissions/createPermissionForRole', { roleId, permissionIds: [permId.roles_manage] }, reader);
    expect(selfGrant.statusCode).toBe(403);
  });
});

describe('no privilege escalation through role permissions (issue 13)', () => {
  const roleOf = async (token: string) =>
    (await t.database.query<{ role_id: number }>(
      'select u.role_id from sessions s join users u on u.user_id = s.user_id where s.token_hash = $1', [hashToken(token)],
    ))[0].role_id;
  const recordOf = async (roleId: number) =>
    (await t.database.query<{ permission_ids: number[]; status: boolean }>('select permission_ids, status from role_permissions where role_id = $1', [roleId]))[0];

  it('finding 1: the members\u2019 role User cannot be given a permission, so a self-registration can read nothing', async () => {
    const [user] = await t.database.query<{ role_id: number }>(`select role_id from roles where name = 'User'`);
    const before = await recordOf(user.role_id);
    const res = await call('PUT', `/api/role-permissions/updatePermissionForRole/${user.role_id}`, { permissionIds: [permId.users_view], status: true });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ success: false, message: 'The User role is for members and cannot hold permissions' });
    expect(await recordOf(user.role_id)).toEqual(before);
    // Nor by deleting the record and creating a new one.
    expect((await call('DELETE', `/api/role-permissions/deleteRoleById/${user.role_id}`)).statusCode).toBe(200);
    const created = await call('POST', '/api/role-permissions/createPermissionForRole', { roleId: user.role_id, permissionIds: [permId.users_view] });
    expect(created.statusCode).toBe(409);
    const stranger = await plainAccount(t);
    expect((await call('GET', '/api/users/getAllusers', undefined, stranger)).statusCode).toBe(403);
  });

  it('finding 6: a roles_manage holder cannot give its own role every permission', async () => {
    const token = await accountWithPermissions(t.database, ['roles_view', 'roles_manage']);
    const editor = bearer(token);
    const own = await roleOf(token);
    const before = await recordOf(own);
    const everything = Object.values(permId);
    const res = await call('PUT', `/api/role-permissions/updatePermissionForRole/${own}`, { permissionIds: everything, status: true }, editor);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('You cannot change the permissions of your own role; ask another administrator to do it');
    expect(await recordOf(own)).toEqual(before);
    expect((await call('GET', '/api/users/getAllusers', undefined, editor)).statusCode).toBe(403);
    // Shrinking or removing it is refused too: one's own powers are changed by someone else.
    expect((await call('DELETE', `/api/role-permissions/removePermissionFromRole/${own}/${permId.roles_view}`, undefined, editor)).statusCode).toBe(403);
    expect((await call('DELETE', `/api/role-permissions/deleteRoleById/${own}`, undefined, editor)).statusCode).toBe(403);
    expect(await recordOf(own)).toEqual(before);
  });

  it('a role\u2019s set can be given only permissions the editor holds, also by switching a set back on', async () => {
    const token = await accountWithPermissions(t.database, ['roles_view', 'roles_manage', 'users_view']);
    const editor = bearer(token);
    const other = await newRole('Helpdesk');
    const escalate = await call('POST', '/api/role-permissions/createPermissionForRole', { roleId: other, permissionIds: [permId.users_view, permId.wallet_manage, permId.staff_manage] }, editor);
    expect(escalate.statusCode).toBe(403);
    expect(escalate.json().message).toBe('You can only grant permissions you hold yourself; you do not hold wallet_manage, staff_manage');
    expect(await recordOf(other)).toBeUndefined();
    expect((await call('POST', '/api/role-permissions/createPermissionForRole', { roleId: other, permissionIds: [permId.users_view] }, editor)).statusCode).toBe(201);
    const add = await call('PUT', `/api/role-permissions/updatePermissionForRole/${other}`, { permissionIds: [permId.users_view, permId.audit_view] }, editor);
    expect(add.statusCode).toBe(403);
    // A set the Admin filled, switched off: the editor may keep it off but not switch it on.
    await call('PUT', `/api/role-permissions/updatePermissionForRole/${other}`, { permissionIds: [permId.users_view, permId.audit_view], status: false });
    expect((await call('PUT', `/api/role-permissions/updatePermissionForRole/${other}`, { permissionName: 'Helpdesk tools' }, editor)).statusCode).toBe(200);
    expect((await call('PUT', `/api/role-permissions/updatePermissionForRole/${other}`, { status: true }, editor)).statusCode).toBe(403);
    // Taking away what the editor does not hold is allowed (it grants nothing).
    const removed = await call('PUT', `/api/role-permissions/updatePermissionForRole/${other}`, { permissionIds: [permId.users_view] }, editor);
    expect(removed.statusCode).toBe(200);
    expect(await recordOf(other)).toEqual({ permission_ids: [permId.users_view], status: false });
  });
});
