import { describe, expect, it } from 'vitest';
import { accountWithPermissions, sessionFor } from '../../test/accounts.ts';
import { ADMIN_EMAIL, bearer, plainAccount } from '../../test/harness.ts';
import { insertUser } from '../users/users.repository.ts';
import {
  accept, admin, adminId, allPermissionsEditor, call, invite, me, roleIds, setupStaffApp, t, tokenOf, userIdOf,
} from './staff-test-kit.ts';

setupStaffApp();


describe('GET /api/staff', () => {
  it('lists the accounts that sign in, newest first, with role, last sign-in, two-factor and invitation state; members are not listed', async () => {
    await insertUser(t.database.db, { fullName: 'Plain Member', email: 'member.only@test.local', phone: '9876500001' });
    const { member } = await invite();
    const res = await call('GET', '/staff?limit=100');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, page: 1, limit: 100 });
    expect(body.total).toBe(body.data.length);
    expect(body.data[0]).toEqual({
      userId: member.userId, fullName: member.fullName, email: member.email, roleId: roleIds.Helpdesk, role: 'Helpdesk',
      status: true, lastSignIn: null, twoFactorEnabled: false, invitePending: true, passwordSet: false, unconfirmed: false,
    });
    expect(body.data.find((s: { userId: number }) => s.userId === adminId)).toMatchObject({
      role: 'Admin', status: true, lastSignIn: expect.any(String), invitePending: false, passwordSet: true,
    });
    expect(body.data.some((s: { email: string }) => s.email === 'member.only@test.local')).toBe(false);
    const ids = body.data.map((s: { userId: number }) => s.userId);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it('searches by name, email or user id, filters by status, and pages on the server', async () => {
    const { member } = await invite();
    const byName = (await call('GET', `/staff?q=${encodeURIComponent(member.fullName.toUpperCase())}`)).json();
    expect(byName.data.map((s: { userId: number }) => s.userId)).toEqual([member.userId]);
    expect((await call('GET', `/staff?q=${member.email}`)).json().total).toBe(1);
    expect((await call('GET', `/staff?q=${member.userId}`)).json().data[0].userId).toBe(member.userId);
    expect((await call('GET', '/staff?q=%25')).json().total).toBe(0);
    const all = (await call('GET', '/staff')).json().total;
    const page2 = (await call('GET', '/staff?limit=1&page=2')).json();
    expect(page2).toMatchObject({ total: all, page: 2, limit: 1 });
    expect(page2.data).toHaveLength(1);
    expect((await call('GET', '/staff?status=inactive')).json().total).toBe(0);
    expect((await call('GET', '/staff?status=active')).json().total).toBe(all);
    const bad = await call('GET', '/staff?status=gone');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Status must be active or inactive');
  });

  it('issue 15: sorts by name, email, role, status or last sign-in in either direction, ties by user id', async () => {
    await invite('Supervisors');
    await invite('Helpdesk');
    type Row = { userId: number; fullName: string; email: string; role: string | null; lastSignIn: string | null };
    const list = async (sort: string) => ((await call('GET', `/staff?limit=100&sort=${sort}`)).json().data as Row[]);
    const byId = (await list('-userId')).map((s) => s.userId);
    expect(byId).toEqual([...byId].sort((x, y) => y - x));
    const names = (await list('fullName')).map((s) => s.fullName.toLowerCase());
    expect(names).toEqual([...names].sort());
    const emails = (await list('-email')).map((s) => s.email);
    expect(emails).toEqual([...emails].sort().reverse());
    const roles = (await list('role')).map((s) => s.role ?? '~');
    expect(roles).toEqual([...roles].sort());
    // Ties (the same role) in user id order, the same direction.
    const helpdesk = (await list('role')).filter((s) => s.role === 'Helpdesk').map((s) => s.userId);
    expect(helpdesk.length).toBeGreaterThan(1);
    expect(helpdesk).toEqual([...helpdesk].sort((x, y) => x - y));
    // Signed in most recently first: the administrator, who signed in; never signed in last.
    const recent = await list('-lastSignIn');
    expect(recent.filter((s) => s.lastSignIn !== null)[0].userId).toBe(adminId);
    const firstNever = recent.findIndex((s) => s.lastSignIn === null);
    expect(firstNever).toBeGreaterThan(0);
    expect(recent.slice(firstNever).every((s) => s.lastSignIn === null)).toBe(true);
    expect((await call('GET', '/staff?sort=phone')).statusCode).toBe(400);
  });
});

describe('GET /api/staff/roles', () => {
  it('offers the active roles except the members\u2019 role User, with their two-factor flag, to staff_manage alone', async () => {
    const onlyStaff = bearer(await accountWithPermissions(t.database, ['staff_manage']));
    const res = await call('GET', '/staff/roles', undefined, onlyStaff);
    expect(res.statusCode).toBe(200);
    const names = res.json().data.map((r: { name: string }) => r.name);
    expect(names).toEqual(expect.arrayContaining(['Admin', 'Helpdesk', 'Supervisors']));
    expect(names).not.toContain('User');
    expect(names).not.toContain('Retired');
    expect(res.json().data.find((r: { name: string }) => r.name === 'Helpdesk')).toEqual({ roleId: roleIds.Helpdesk, name: 'Helpdesk', twoFactorRequired: false });
  });
});

describe('PUT /api/staff/{userId}', () => {
  it('changes name and email, audits before and after, refuses a taken email; links mailed to the old address stop working', async () => {
    const { member, link } = await invite();
    const res = await call('PUT', `/staff/${member.userId}`, { fullName: 'Renamed Staff', email: 'renamed.staff@test.local' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Staff member updated successfully', data: { fullName: 'Renamed Staff', email: 'renamed.staff@test.local', invitePending: false } });
    const stale = await t.app.inject({ method: 'POST', url: '/api/users/reset-password', payload: { token: tokenOf(link), newPassword: 'invitee-password-1' } });
    expect(stale.statusCode).toBe(400);
    const [entry] = await t.database.query<{ before: { email: string }; after: { email: string } }>(
      `select before, after from audit_log where entity = 'user' and action = 'update' and entity_id = $1`, [String(member.userId)],
    );
    expect(entry).toEqual({ before: expect.objectContaining({ email: member.email }), after: expect.objectContaining({ email: 'renamed.staff@test.local' }) });
    const taken = await call('PUT', `/staff/${member.userId}`, { email: ADMIN_EMAIL });
    expect(taken.statusCode).toBe(409);
    expect((await call('PUT', `/staff/${member.userId}`, {})).json().message).toBe('Give a new full name or email');
  });

  it('issue 22 finding 11: one\u2019s own sign-in email changes only under Your account (403 here); one\u2019s own name still changes', async () => {
    const own = await call('PUT', `/staff/${adminId}`, { email: 'hijacked@test.local' });
    expect(own.statusCode).toBe(403);
    expect(own.json().message).toBe('Change your own sign-in email under Your account (/account), where your password is asked again.');
    const [row] = await t.database.query<{ email: string }>('select email from users where user_id = $1', [adminId]);
    expect(row.email).toBe(ADMIN_EMAIL);
    const sameEmail = await call('PUT', `/staff/${adminId}`, { fullName: 'System Administrator', email: ADMIN_EMAIL });
    expect(sameEmail.statusCode).toBe(200);
  });
});

describe('PUT /api/staff/{userId}/role', () => {
  it('assigns a role (the account\u2019s permissions change on its next request) and audits it', async () => {
    const { member, link } = await invite();
    const token = await accept(link, member.email);
    expect((await call('GET', '/staff', undefined, bearer(token))).statusCode).toBe(403);
    const res = await call('PUT', `/staff/${member.userId}/role`, { roleId: roleIds.Supervisors });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: `${member.fullName} now has the role Supervisors`, data: { role: 'Supervisors', roleId: roleIds.Supervisors } });
    expect((await call('GET', '/staff', undefined, bearer(token))).statusCode).toBe(200);
    const [entry] = await t.database.query<{ before: { role: string }; after: { role: string } }>(
      `select before, after from audit_log where action = 'change_role' and entity_id = $1`, [String(member.userId)],
    );
    expect([entry.before.role, entry.after.role]).toEqual(['Helpdesk', 'Supervisors']);
  });

  it('gives a self-registered account (no role) its first role', async () => {
    await plainAccount(t);
    const listed = (await call('GET', '/staff?q=plain@test.local')).json().data[0];
    expect(listed).toMatchObject({ role: null, roleId: null });
    const res = await call('PUT', `/staff/${listed.userId}/role`, { roleId: roleIds.Helpdesk });
    expect(res.json().data.role).toBe('Helpdesk');
  });

  it('nobody changes their own role (403)', async () => {
    const res = await call('PUT', `/staff/${adminId}/role`, { roleId: roleIds.Helpdesk });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('You cannot change your own role; ask another administrator');
    const supervisor = await accountWithPermissions(t.database, ['staff_manage', 'users_view']);
    const self = await call('PUT', `/staff/${await userIdOf(supervisor)}/role`, { roleId: roleIds.Supervisors }, bearer(supervisor));
    expect(self.statusCode).toBe(403);
  });

  it('refuses the User role and inactive roles (409) and a role granting what the editor lacks (403): a staff_manage holder cannot make anyone Admin', async () => {
    const { member } = await invite();
    const url = `/staff/${member.userId}/role`;
    expect((await call('PUT', url, { roleId: roleIds.User })).statusCode).toBe(409);
    expect((await call('PUT', url, { roleId: roleIds.Retired })).statusCode).toBe(409);
    const manager = bearer(await accountWithPermissions(t.database, ['staff_manage', 'users_view']));
    const escalate = await call('PUT', url, { roleId: roleIds.Admin }, manager);
    expect(escalate.statusCode).toBe(403);
    expect(escalate.json().message).toMatch(/^You can only assign a role whose permissions you hold yourself; Admin also grants /);
    expect((await call('PUT', url, { roleId: roleIds.Supervisors }, manager)).statusCode).toBe(200);
    // An invitation can't hand out more than the inviter holds either.
    const invited = await call('POST', '/staff/invite', { fullName: 'Sneaky', email: 'sneaky@test.local', roleId: roleIds.Admin }, manager);
    expect(invited.statusCode).toBe(403);
    const [row] = await t.database.query<{ role_id: number }>('select role_id from users where user_id = $1', [member.userId]);
    expect(row.role_id).toBe(roleIds.Supervisors);
  });

  it('the last active administrator cannot be demoted (409); with a second administrator it can', async () => {
    const editor = await allPermissionsEditor();
    const demote = await call('PUT', `/staff/${adminId}/role`, { roleId: roleIds.Helpdesk }, editor.headers);
    expect(demote.statusCode).toBe(409);
    expect(demote.json().message).toBe('System Administrator is the last active administrator and cannot be given another role; make another account an administrator first');
    const [row] = await t.database.query<{ role_id: number }>('select role_id from users where user_id = $1', [adminId]);
    expect(row.role_id).toBe(roleIds.Admin);
    // An invited administrator who has not set a password yet can't sign in: it does not count.
    const { member, link } = await invite('Admin');
    expect((await call('PUT', `/staff/${adminId}/role`, { roleId: roleIds.Helpdesk }, editor.headers)).statusCode).toBe(409);
    await accept(link, member.email);
    const secondAdmin = bearer(await t.login(member.email, 'invitee-password-1'));
    const ok = await call('PUT', `/staff/${member.userId}/role`, { roleId: roleIds.Helpdesk }, editor.headers);
    expect(ok.statusCode).toBe(200);
    expect((await call('GET', '/staff', undefined, secondAdmin)).statusCode).toBe(403);
  });

  it('moving an account to a role that requires two-factor ends its sessions opened without it', async () => {
    const created = await call('POST', '/CreateRoles', { name: 'Cashiers', status: true, twoFactorRequired: true });
    const cashiers = created.json().data.roleId;
    const { member, link } = await invite();
    const token = await accept(link, member.email);
    await call('PUT', `/staff/${member.userId}/role`, { roleId: cashiers });
    expect((await me(token)).statusCode).toBe(401);
  });
});

describe('PUT /api/staff/{userId}/status and POST /api/staff/{userId}/sign-out', () => {
  it('deactivating ends every session; reactivating lets the account sign in again; both audited', async () => {
    const { member, link } = await invite();
    const token = await accept(link, member.email);
    const other = await sessionFor(t.database, member.userId);
    const off = await call('PUT', `/staff/${member.userId}/status`, { status: false });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ message: `${member.fullName} is deactivated and signed out everywhere`, data: { status: false } });
    expect((await me(token)).statusCode).toBe(401);
    expect((await me(other)).statusCode).toBe(401);
    expect(await t.database.query('select 1 from sessions where user_id = $1', [member.userId])).toEqual([]);
    const login = await t.app.inject({ method: 'POST', url: '/api/Adminlogin', payload: { email: member.email, password: 'invitee-password-1' } });
    expect(login.statusCode).toBe(403);
    expect((await call('GET', '/staff?status=inactive')).json().data.map((s: { userId: number }) => s.userId)).toContain(member.userId);
    const on = await call('PUT', `/staff/${member.userId}/status`, { status: true });
    expect(on.json()).toMatchObject({ message: `${member.fullName} is active again`, data: { status: true } });
    await t.login(member.email, 'invitee-password-1');
    const actions = await t.database.query<{ action: string }>(
      `select action from audit_log where entity = 'user' and entity_id = $1 and action in ('deactivate', 'reactivate') order by id`, [String(member.userId)],
    );
    expect(actions.map((a) => a.action)).toEqual(['deactivate', 'reactivate']);
    expect((await call('PUT', `/staff/${member.userId}/status`, { status: 'no' })).statusCode).toBe(400);
  });

  it('nobody deactivates themselves (403); the last active administrator cannot be deactivated (409)', async () => {
    const self = await call('PUT', `/staff/${adminId}/status`, { status: false });
    expect(self.statusCode).toBe(403);
    expect(self.json().message).toBe('You cannot deactivate your own account');
    const editor = await allPermissionsEditor();
    const last = await call('PUT', `/staff/${adminId}/status`, { status: false }, editor.headers);
    expect(last.statusCode).toBe(409);
    expect(last.json().message).toMatch(/is the last active administrator and cannot be deactivated/);
    expect((await me(admin['authorization'].slice(7))).statusCode).toBe(200);
  });

  it('an operator with staff_manage alone cannot touch an account that outranks them: not its email, status, role or sessions', async () => {
    const manager = bearer(await accountWithPermissions(t.database, ['staff_manage']));
    const takeover = await call('PUT', `/staff/${adminId}`, { email: 'attacker@example.com' }, manager);
    expect(takeover.statusCode).toBe(403);
    expect(takeover.json().message).toMatch(/^System Administrator has the role Admin, which holds permissions you do not have \(.+\), so you cannot change this account$/);
    expect((await call('PUT', `/staff/${adminId}/status`, { status: false }, manager)).statusCode).toBe(403);
    expect((await call('PUT', `/staff/${adminId}/role`, { roleId: roleIds.Helpdesk }, manager)).statusCode).toBe(403);
    expect((await call('POST', `/staff/${adminId}/sign-out`, undefined, manager)).statusCode).toBe(403);
    const [row] = await t.database.query<{ email: string; status: boolean; role_id: number }>('select email, status, role_id from users where user_id = $1', [adminId]);
    expect(row).toEqual({ email: ADMIN_EMAIL, status: true, role_id: roleIds.Admin });
  });

  it('sign out everywhere ends every session of the account and audits how many', async () => {
    const { member, link } = await invite();
    const token = await accept(link, member.email);
    await sessionFor(t.database, member.userId);
    const res = await call('POST', `/staff/${member.userId}/sign-out`);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(`${member.fullName} was signed out of 2 sessions`);
    expect((await me(token)).statusCode).toBe(401);
    const [entry] = await t.database.query<{ after: { sessionsEnded: number } }>(
      `select after from audit_log where action = 'sign_out_everywhere' and entity_id = $1`, [String(member.userId)],
    );
    expect(entry.after.sessionsEnded).toBe(2);
  });

  it('members are not on this screen: every staff route answers 404 for them, and for unknown ids', async () => {
    const plain = await insertUser(t.database.db, { fullName: 'Network Member', email: 'network.member@test.local', phone: '9876500002' });
    for (const [method, url, payload] of [
      ['PUT', `/staff/${plain.userId}`, { fullName: 'X' }],
      ['PUT', `/staff/${plain.userId}/role`, { roleId: roleIds.Helpdesk }],
      ['PUT', `/staff/${plain.userId}/status`, { status: false }],
      ['POST', `/staff/${plain.userId}/sign-out`, undefined],
      ['POST', `/staff/${plain.userId}/invite`, undefined],
      ['PUT', '/staff/987654321/status', { status: false }],
    ] as const) {
      const res = await call(method, url, payload);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ success: false, message: 'Staff member not found' });
    }
    const [row] = await t.database.query<{ can_sign_in: boolean; role_id: number | null }>('select can_sign_in, role_id from users where user_id = $1', [plain.userId]);
    expect(row).toEqual({ can_sign_in: false, role_id: null });
  });
});
