import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountWithPermissions } from '../../test/accounts.ts';
import { bearer, caller, createTestApp, csvExport, type TestContext } from '../../test/harness.ts';

// Issue 24: Download CSV on Permissions, Roles and Role Permissions (the filtered list, by id; the list's own permission).
let t: TestContext;
let call: ReturnType<typeof caller>;
let withoutView: Record<string, string>;
let rolesViewer: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  call = caller(t, bearer(await t.login()));
  withoutView = bearer(await accountWithPermissions(t.database, ['users_view']));
  rolesViewer = bearer(await accountWithPermissions(t.database, ['roles_view']));
});
afterAll(() => t.close());

const csv = (url: string, headers?: Record<string, string>) => csvExport(call, url, headers);
const ids = (rows: string[]) => rows.map((r) => Number(r.split(',')[0]));

describe('access lists as CSV', () => {
  it('permissions: by id, filtered by the search (name or description, any case) and the module', async () => {
    const all = await csv('/api/permissions/permissions.csv');
    expect(all.header).toBe('Permission ID,Name,Module,Description,Created');
    const stored = await t.database.query<{ permission_id: number; name: string; module: string }>(
      'select permission_id, name, module from permissions order by permission_id');
    expect(ids(all.rows)).toEqual(stored.map((p) => Number(p.permission_id)));
    const approve = stored.find((p) => p.name === 'money_approve')!;
    expect(all.rows).toContainEqual(expect.stringMatching(new RegExp(`^${approve.permission_id},money_approve,Reports,.+\\+05:30$`)));
    // 'APPROV' matches money_approve by name (any case) and others by their description; the module narrows it.
    const searched = await csv('/api/permissions/permissions.csv?q=APPROV&module=Reports');
    expect(searched.rows.length).toBeGreaterThan(0);
    expect(searched.rows.every((r) => r.split(',')[2] === 'Reports' && /approv/i.test(r))).toBe(true);
    expect(ids(searched.rows)).toContain(Number(approve.permission_id));
    const settings = await csv('/api/permissions/permissions.csv?module=Settings');
    expect(settings.rows).toHaveLength(stored.filter((p) => p.module === 'Settings').length);
    expect((await csv('/api/permissions/permissions.csv?q=no-such-permission')).rows).toEqual([]);
    expect((await call('GET', '/api/permissions/permissions.csv?module=Nope')).statusCode).toBe(400);
    expect((await call('GET', '/api/permissions/permissions.csv', undefined, withoutView)).statusCode).toBe(403);
    expect((await call('GET', '/api/permissions/permissions.csv', undefined, rolesViewer)).statusCode).toBe(403);
  });

  it('roles: by id, filtered by name; refused without roles_view', async () => {
    const all = await csv('/api/roles/roles.csv', rolesViewer);
    expect(all.header).toBe('Role ID,Name,Status,Two-factor required,Created');
    const stored = await t.database.query<{ role_id: number }>('select role_id from roles order by role_id');
    expect(ids(all.rows)).toEqual(stored.map((r) => Number(r.role_id)));
    expect(all.rows.some((r) => /^\d+,Operator,Active,Yes,.+\+05:30$/.test(r))).toBe(true);
    const op = await csv('/api/roles/roles.csv?q=oPeRa', rolesViewer);
    expect(op.rows.map((r) => r.split(',')[1])).toEqual(['Operator']);
    expect((await call('GET', '/api/roles/roles.csv', undefined, withoutView)).statusCode).toBe(403);
  });

  it('role permissions: each role\u2019s set with the names beside the ids; refused without roles_view', async () => {
    const out = await csv('/api/role-permissions/rolePermissions.csv', rolesViewer);
    expect(out.header).toBe('Role ID,Role,Permission group,Permission IDs,Permissions,Status,Created');
    const [approver] = await t.database.query<{ role_id: number; permission_ids: number[] }>(
      `select rp.role_id, rp.permission_ids from role_permissions rp join roles r using (role_id) where r.name = 'Approver'`);
    const names = new Map((await t.database.query<{ permission_id: number; name: string }>('select permission_id, name from permissions'))
      .map((p) => [Number(p.permission_id), p.name]));
    const row = out.rows.find((r) => r.startsWith(`${approver.role_id},Approver,`))!.split(',');
    expect(row[3]).toBe(approver.permission_ids.join(' '));
    expect(row[4]).toBe(approver.permission_ids.map((id) => names.get(Number(id))).join(' '));
    expect(row[4]).toContain('money_approve');
    expect((await call('GET', '/api/role-permissions/rolePermissions.csv', undefined, withoutView)).statusCode).toBe(403);
  });
});
