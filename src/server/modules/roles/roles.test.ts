import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionFor } from '../../test/accounts.ts';
import { bearer, type caller, createTestApp, signedInApp, type TestContext } from '../../test/harness.ts';
import { insertUser } from '../users/users.repository.ts';

let t: TestContext;
let call: ReturnType<typeof caller>;
beforeAll(async () => {
  ({ t, call } = await signedInApp());
});
afterAll(() => t.close());

const roleId = async (name: string) =>
  (await t.database.query<{ role_id: number }>('select role_id from roles where name = $1', [name]))[0].role_id;

describe('roles API', () => {
  it('lists Admin and User with roleId, name, status', async () => {
    const res = await call('GET', '/api/GetAllRoles');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.slice(0, 2)).toEqual([
      { roleId: expect.any(Number), name: 'Admin', status: true, twoFactorRequired: false, createdAt: expect.any(String) },
      { roleId: expect.any(Number), name: 'User', status: true, twoFactorRequired: false, createdAt: expect.any(String) },
    ]);
  });

  it('creates (status defaults to true), refuses a duplicate name with 409 and an empty one with 400', async () => {
    const res = await call('POST', '/api/CreateRoles', { name: ' Helpdesk ' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ success: true, message: 'Role created successfully', data: { name: 'Helpdesk', status: true } });
    const dup = await call('POST', '/api/CreateRoles', { name: 'Helpdesk', status: false });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('A role named Helpdesk already exists');
    const empty = await call('POST', '/api/CreateRoles', { name: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Please enter a role name');
    // Issue 24 item 9: a 300-character name is refused with a message, not cut to 100.
    const long = await call('POST', '/api/CreateRoles', { name: 'R'.repeat(300) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe('Role name must be at most 100 characters');
  });

  it('updates name and status, and keeps the role-permission record\u2019s name in step', async () => {
    const id = await roleId('Helpdesk');
    await call('POST', '/api/role-permissions/createPermissionForRole', { roleId: id, permissionIds: [1] });
    const res = await call('PUT', `/api/updateRole/${id}`, { name: 'Customer Helpdesk', status: false });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Role updated successfully', data: { roleId: id, name: 'Customer Helpdesk', status: false } });
    const [rp] = await t.database.query<{ role_name: string }>('select role_name from role_permissions where role_id = $1', [id]);
    expect(rp.role_name).toBe('Customer Helpdesk');
    expect((await call('PUT', '/api/updateRole/999999', { name: 'X', status: true })).statusCode).toBe(404);
    expect((await call('PUT', `/api/updateRole/${id}`, { name: 'Admin', status: true })).statusCode).toBe(409);
  });

  it('never lets the Admin role be renamed, deactivated or deleted, nor the User role be renamed or deleted', async () => {
    const admin = await roleId('Admin');
    const off = await call('PUT', `/api/updateRole/${admin}`, { name: 'Admin', status: false });
    expect(off.statusCode).toBe(409);
    expect(off.json().message).toMatch(/Admin role can.t be renamed or deactivated/);
    expect((await call('PUT', `/api/updateRole/${admin}`, { name: 'Root', status: true })).statusCode).toBe(409);
    expect((await call('DELETE', `/api/deleteRole/${admin}`)).statusCode).toBe(409);
    const user = await roleId('User');
    expect((await call('PUT', `/api/updateRole/${user}`, { name: 'Member', status: true })).statusCode).toBe(409);
    expect((await call('DELETE', `/api/deleteRole/${user}`)).statusCode).toBe(409);
    expect((await call('GET', '/api/GetAllRoles')).json().data[0]).toMatchObject({ name: 'Admin', status: true });
  });

  it('refuses to delete a role held by an account (409), deletes a free one with its role permissions, audits both', async () => {
    const held = (await call('POST', '/api/CreateRoles', { name: 'Auditor', status: true })).json().data;
    await insertUser(t.database.db, { fullName: 'Audit Person', email: 'auditor@test.local', phone: '9000000111', roleId: held.roleId });
    const refused = await call('DELETE', `/api/deleteRole/${held.roleId}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('Role Auditor is held by accounts; give them another role before deleting it');

    const id = await roleId('Customer Helpdesk');
    const res = await call('DELETE', `/api/deleteRole/${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Role deleted successfully' });
    expect(await t.database.query('select 1 from role_permissions where role_id = $1', [id])).toEqual([]);
    expect((await call('DELETE', `/api/deleteRole/${id}`)).statusCode).toBe(404);
    const logs = await t.database.query<{ entity: string; action: string }>(
      `select entity, action from audit_log where entity_id = $1 and entity in ('role', 'role_permission') order by id`, [String(id)],
    );
    expect(logs).toEqual([
      { entity: 'role', action: 'create' },
      { entity: 'role_permission', action: 'create' },
      { entity: 'role', action: 'update' },
      { entity: 'role_permission', action: 'delete' },
      { entity: 'role', action: 'delete' },
    ]);
  });

  it('takes a two-factor flag on create and update (left out: unchanged), lists it and audits it', async () => {
    const created = await call('POST', '/api/CreateRoles', { name: 'Treasury', twoFactorRequired: true });
    expect(created.statusCode).toBe(201);
    expect(created.json().data).toMatchObject({ name: 'Treasury', twoFactorRequired: true });
    const id = created.json().data.roleId;
    const renamed = await call('PUT', `/api/updateRole/${id}`, { name: 'Treasury Desk', status: true });
    expect(renamed.json().data.twoFactorRequired).toBe(true);
    const off = await call('PUT', `/api/updateRole/${id}`, { name: 'Treasury Desk', status: true, twoFactorRequired: false });
    expect(off.json().data.twoFactorRequired).toBe(false);
    expect((await call('GET', '/api/GetAllRoles')).json().data.find((r: { roleId: number }) => r.roleId === id).twoFactorRequired).toBe(false);
    const [entry] = await t.database.query<{ before: { twoFactorRequired: boolean }; after: { twoFactorRequired: boolean } }>(
      `select before, after from audit_log where entity = 'role' and action = 'update' and entity_id = $1 order by id desc limit 1`, [String(id)],
    );
    expect([entry.before.twoFactorRequired, entry.after.twoFactorRequired]).toEqual([true, false]);
    expect((await call('POST', '/api/CreateRoles', { name: 'Odd', twoFactorRequired: 'yes' })).statusCode).toBe(400);
  });
});

describe('roles with ADMIN_TWO_FACTOR on (the production default)', () => {
  it('lists the Admin role as requiring two-factor and refuses to switch that off', async () => {
    const prod = await createTestApp({ config: { adminTwoFactor: true } });
    try {
      const [row] = await prod.database.query<{ role_id: number }>(`select role_id from roles where name = 'Admin'`);
      // Signed in straight through the database: the sign-in itself would ask for a second factor.
      const [adminUser] = await prod.database.query<{ user_id: number }>(`select user_id from users where role_id = $1`, [row.role_id]);
      await prod.database.query(`insert into two_factor (user_id, secret, enabled_at) values ($1, 'JBSWY3DPEHPK3PXP', now())`, [adminUser.user_id]);
      const h = bearer(await sessionFor(prod.database, Number(adminUser.user_id)));
      const list = await prod.app.inject({ method: 'GET', url: '/api/GetAllRoles', headers: h });
      expect(list.json().data[0]).toMatchObject({ name: 'Admin', twoFactorRequired: true });
      const res = await prod.app.inject({ method: 'PUT', url: `/api/updateRole/${row.role_id}`, headers: h, payload: { name: 'Admin', status: true, twoFactorRequired: false } });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe('This server requires two-factor sign-in for the Admin role (ADMIN_TWO_FACTOR), so it can\u2019t be switched off here');
    } finally {
      await prod.close();
    }
  });
});
