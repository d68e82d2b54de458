import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READY_ROLES } from '../../../contract/permissions.ts';
import { bearer, caller, createTestApp, type TestContext } from '../../test/harness.ts';

let t: TestContext;
let call: ReturnType<typeof caller>;
beforeAll(async () => {
  t = await createTestApp();
  call = caller(t, bearer(await t.login()));
});
afterAll(() => t.close());

/** Each role's permission names, as the server sees them. */
async function sets(): Promise<Record<string, { names: string[]; twoFactor: boolean }>> {
  const rows = await t.database.query<{ name: string; two_factor_required: boolean; names: string[] | null }>(
    `select r.name, r.two_factor_required,
            (select array_agg(p.name order by p.name) from permissions p where p.permission_id = any(rp.permission_ids)) as names
       from roles r left join role_permissions rp on rp.role_id = r.role_id`,
  );
  return Object.fromEntries(rows.map((r) => [r.name, { names: r.names ?? [], twoFactor: r.two_factor_required }]));
}

describe('ready roles (issue 24)', () => {
  it('a fresh database has Operator, Approver, Accountant and Support with their documented sets', async () => {
    const found = await sets();
    for (const role of READY_ROLES) {
      expect(found[role.name], role.name).toEqual({ names: [...role.permissions].sort(), twoFactor: role.twoFactorRequired });
    }
    // Four eyes: only the Approver (and Admin) approves; the Operator files but cannot approve.
    const holders = (perm: string) => Object.entries(found).filter(([, s]) => s.names.includes(perm)).map(([n]) => n).sort();
    expect(holders('money_approve')).toEqual(['Admin', 'Approver']);
    expect(found.Operator.names).toEqual(expect.arrayContaining(['wallet_manage', 'payouts_pay']));
    for (const perm of ['roles_manage', 'permissions_manage', 'staff_manage']) expect(holders(perm)).toEqual(['Admin']);
    // The staff invitation's Role list offers them.
    const offered = (await call('GET', '/api/staff/roles')).json().data.map((r: { name: string }) => r.name);
    expect(offered).toEqual(expect.arrayContaining(['Admin', 'Operator', 'Approver', 'Accountant', 'Support']));
  });

  it('they are ordinary roles: their set can be edited', async () => {
    const [{ role_id: roleId }] = await t.database.query<{ role_id: number }>(`select role_id from roles where name = 'Support'`);
    const [{ permission_id: id }] = await t.database.query<{ permission_id: number }>(`select permission_id from permissions where name = 'users_view'`);
    const res = await call('PUT', `/api/role-permissions/updatePermissionForRole/${roleId}`, { permissionIds: [id], status: true });
    expect(res.statusCode).toBe(200);
    expect((await sets()).Support.names).toEqual(['users_view']);
  });

  it('migration 0027 adds them to an existing installation only where absent, with the same sets', async () => {
    const ready = fs.readFileSync(new URL('../../../../drizzle/0027_ready_roles.sql', import.meta.url), 'utf8');
    // 0030 and 0031 (issue 25) give the Accountant books_view and bank_transfers: the sets are
    // READY_ROLES' after all three (0031's grant alone: its tables exist already).
    const booksView = fs.readFileSync(new URL('../../../../drizzle/0030_books_view.sql', import.meta.url), 'utf8');
    const bankGrant = fs.readFileSync(new URL('../../../../drizzle/0031_bank_transfers.sql', import.meta.url), 'utf8')
      .split('--> statement-breakpoint').filter((statement) => statement.includes("'bank_transfers'"));
    const migrate = async () => {
      for (const statement of [ready, ...booksView.split('--> statement-breakpoint'), ...bankGrant]) await t.database.query(statement);
    };
    // An installation from before issue 24 that made its own "Support" role.
    await t.database.query(`delete from roles where name in ('Operator', 'Approver', 'Accountant')`);
    const [{ role_id: own }] = await t.database.query<{ role_id: number }>(`select role_id from roles where name = 'Support'`);
    await migrate();
    const found = await sets();
    for (const role of READY_ROLES.filter((r) => r.name !== 'Support')) {
      expect(found[role.name], role.name).toEqual({ names: [...role.permissions].sort(), twoFactor: role.twoFactorRequired });
    }
    expect(found.Support.names).toEqual(['users_view']); // kept as it was
    expect((await t.database.query(`select role_id from roles where name = 'Support'`))).toEqual([{ role_id: own }]);
    // Run again: nothing more.
    const before = (await t.database.query('select role_id from roles')).length;
    await migrate();
    expect((await t.database.query('select role_id from roles')).length).toBe(before);
  });
});
