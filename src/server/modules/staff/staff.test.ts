import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../plugins/auth.ts';
import { accountWithPermissions, sessionFor } from '../../test/accounts.ts';
import { ADMIN_EMAIL, bearer, confirmRegistration, createTestApp, plainAccount, type TestContext } from '../../test/harness.ts';
import { insertUser } from '../users/users.repository.ts';

let t: TestContext;
let admin: Record<string, string>;
let adminId: number;
let roleIds: Record<string, number>;

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

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers = admin) =>
  t.app.inject({ method, url: `/api${url}`, headers, payload });

let seq = 0;
async function invite(roleName = 'Helpdesk', headers = admin) {
  seq += 1;
  const res = await call('POST', '/staff/invite', { fullName: `Staff Person ${seq}`, email: `staff${seq}@test.local`, roleId: roleIds[roleName] }, headers);
  expect(res.statusCode, res.body).toBe(201);
  return { member: res.json().data, link: t.mail.at(-1)!.link };
}

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

/** The invitee opens the link and chooses a password, then signs in. */
async function accept(link: string, email: string, password = 'invitee-password-1'): Promise<string> {
  const set = await t.app.inject({ method: 'POST', url: '/api/users/reset-password', payload: { token: tokenOf(link), newPassword: password } });
  expect(set.statusCode, set.body).toBe(200);
  return t.login(email, password);
}

const userIdOf = async (token: string) =>
  Number((await t.database.query<{ user_id: number }>('select user_id from sessions where token_hash = $1', [hashToken(token)]))[0].user_id);

const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/users/me', headers: bearer(token) });

/** An account whose role holds every permission there is, but which is not the Admin role. */
async function allPermissionsEditor(): Promise<{ headers: Record<string, string>; userId: number }> {
  const names = (await t.database.query<{ name: string }>('select name from permissions')).map((p) => p.name);
  const token = await accountWithPermissions(t.database, names);
  return { headers: bearer(token), userId: await userIdOf(token) };
}

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

describe('POST /api/staff/invite', () => {
  it('creates a staff account without a password, stores only the hash of a 72-hour invite link, mails the link built from PUBLIC_URL, and audits', async () => {
    const before = t.mail.length;
    const res = await call('POST', '/staff/invite', { fullName: '  Asha Rao ', email: 'Asha.Rao@Test.local', roleId: roleIds.Helpdesk });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      success: true, message: 'Invitation sent to Asha Rao (asha.rao@test.local)',
      data: { fullName: 'Asha Rao', email: 'asha.rao@test.local', role: 'Helpdesk', invitePending: true, passwordSet: false },
    });
    const { userId } = res.json().data;
    const [row] = await t.database.query<{ can_sign_in: boolean; password_hash: string | null; role_id: number; level: number; phone: string; status: boolean }>(
      'select can_sign_in, password_hash, role_id, level, phone, status from users where user_id = $1', [userId],
    );
    expect(row).toMatchObject({ can_sign_in: true, password_hash: null, role_id: roleIds.Helpdesk, level: 0, status: true });
    expect(row.phone).toMatch(/^9000000\d{3}$/);
    expect(t.mail.length).toBe(before + 1);
    const mail = t.mail.at(-1)!;
    expect(mail).toMatchObject({ kind: 'invite', to: 'asha.rao@test.local' });
    expect(mail.link.startsWith('https://panel.example.test/accept-invite?token=')).toBe(true);
    const [link] = await t.database.query<{ token_hash: string; purpose: string; hours: number }>(
      `select token_hash, purpose, round(extract(epoch from expires_at - now()) / 3600)::int as hours from password_resets where user_id = $1`, [userId],
    );
    expect(link).toEqual({ token_hash: hashToken(tokenOf(mail.link)), purpose: 'invite', hours: 72 });
    const [entry] = await t.database.query<{ actor_id: number; after: { email: string } }>(
      `select actor_id, after from audit_log where entity = 'user' and action = 'invite' and entity_id = $1`, [String(userId)],
    );
    expect(Number(entry.actor_id)).toBe(adminId);
    expect(entry.after.email).toBe('asha.rao@test.local');
  });

  it('gives each invitee the next free placeholder phone', async () => {
    const a = await invite();
    const b = await invite();
    const phones = await t.database.query<{ phone: string }>('select phone from users where user_id = any($1::bigint[]) order by user_id', [[a.member.userId, b.member.userId]]);
    expect(new Set(phones.map((p) => p.phone)).size).toBe(2);
  });

  it('refuses a taken email (409), the User role, an inactive or unknown role, and bad input, creating nothing', async () => {
    const count = async () => Number((await t.database.query<{ n: number }>('select count(*) as n from users'))[0].n);
    const n = await count();
    const dup = await call('POST', '/staff/invite', { fullName: 'Again', email: ADMIN_EMAIL, roleId: roleIds.Helpdesk });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe(`An account with the email ${ADMIN_EMAIL} already exists`);
    const user = await call('POST', '/staff/invite', { fullName: 'Member Role', email: 'memberrole@test.local', roleId: roleIds.User });
    expect(user.statusCode).toBe(409);
    expect(user.json().message).toBe('The User role is for members, not staff: choose another role');
    const retired = await call('POST', '/staff/invite', { fullName: 'Old Role', email: 'oldrole@test.local', roleId: roleIds.Retired });
    expect(retired.statusCode).toBe(409);
    expect(retired.json().message).toBe('The role Retired is inactive: activate it on the Roles screen before assigning it');
    expect((await call('POST', '/staff/invite', { fullName: 'No Role', email: 'norole@test.local', roleId: 424242 })).json().message).toBe('Role 424242 does not exist');
    const invalid = await call('POST', '/staff/invite', { fullName: '', email: 'not-an-email' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().message).toBe('Full name is required');
    expect(await count()).toBe(n);
  });

  it('the invitee sets a password through the link once and signs in; the invitation is then no longer pending', async () => {
    const { member, link } = await invite();
    const token = await accept(link, member.email);
    expect((await me(token)).json().data).toMatchObject({ email: member.email, role: 'Helpdesk' });
    const again = await t.app.inject({ method: 'POST', url: '/api/users/reset-password', payload: { token: tokenOf(link), newPassword: 'another-password-1' } });
    expect(again.statusCode).toBe(400);
    const listed = (await call('GET', `/staff?q=${member.email}`)).json().data[0];
    expect(listed).toMatchObject({ invitePending: false, passwordSet: true, lastSignIn: expect.any(String) });
  });
});

describe('issue 22 finding 11: a registration never blocks an invitation', () => {
  const register = (email: string, n: number) => t.app.inject({
    method: 'POST', url: '/api/register', remoteAddress: `10.70.0.${n}`,
    payload: { name: `squatter${n}`, fullName: 'Squatter', email, phone: `95500000${10 + n}`, address: 'Elsewhere', password: 'squatter-password-1' },
  });

  it('a stranger registers a future colleague’s email; the invitation takes the unconfirmed registration over and nothing of the stranger’s stays', async () => {
    const reg = await register('future.colleague@test.local', 1);
    expect(reg.statusCode).toBe(201);
    const squatterId = reg.json().user.userId as number;
    const listed = (await call('GET', '/staff?q=future.colleague')).json().data[0];
    expect(listed).toMatchObject({ userId: squatterId, unconfirmed: true, role: null });
    // It cannot be given a role while its address is not proven.
    const role = await call('PUT', `/staff/${squatterId}/role`, { roleId: roleIds.Helpdesk });
    expect(role.statusCode).toBe(409);
    expect(role.json().message).toMatch(/has not confirmed their email address.*invite future\.colleague@test\.local instead/);

    const res = await call('POST', '/staff/invite', { fullName: 'Future Colleague', email: 'future.colleague@test.local', roleId: roleIds.Helpdesk });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({
      userId: squatterId, fullName: 'Future Colleague', role: 'Helpdesk', unconfirmed: false, passwordSet: false, invitePending: true,
    });
    const [row] = await t.database.query<{ username: string | null; address: string | null; phone: string; password_hash: string | null; level: number }>(
      'select username, address, phone, password_hash, level from users where user_id = $1', [squatterId],
    );
    expect(row).toMatchObject({ username: null, address: null, password_hash: null, level: 0 });
    expect(row.phone).toMatch(/^9000000\d{3}$/);
    // The stranger's token, password and confirmation link are worth nothing now.
    expect((await me(reg.json().token)).statusCode).toBe(401);
    const signIn = await t.app.inject({ method: 'POST', url: '/api/Adminlogin', remoteAddress: '10.70.0.1', payload: { email: 'future.colleague@test.local', password: 'squatter-password-1' } });
    expect(signIn.statusCode).toBe(401);
    const confirm = t.mail.find((m) => m.kind === 'confirm' && m.to === 'future.colleague@test.local')!;
    expect((await t.app.inject({ method: 'POST', url: '/api/users/confirm-email', payload: { token: tokenOf(confirm.link) } })).statusCode).toBe(400);
    // The invitee accepts and signs in.
    const token = await accept(t.mail.at(-1)!.link, 'future.colleague@test.local');
    expect((await me(token)).json().data).toMatchObject({ email: 'future.colleague@test.local', role: 'Helpdesk' });
    const [entry] = await t.database.query<{ before: { takenOver: string } }>(
      `select before from audit_log where action = 'invite' and entity_id = $1`, [String(squatterId)],
    );
    expect(entry.before.takenOver).toBe('unconfirmed registration');
  });

  it('a confirmed registration is an account like any other: the invitation is refused (409)', async () => {
    const reg = await register('confirmed.owner@test.local', 2);
    expect(reg.statusCode).toBe(201);
    await confirmRegistration(t, 'confirmed.owner@test.local');
    const res = await call('POST', '/staff/invite', { fullName: 'Owner', email: 'confirmed.owner@test.local', roleId: roleIds.Helpdesk });
    expect(res.statusCode).toBe(409);
  });
});

describe('POST /api/staff/{userId}/invite', () => {
  it('sends a fresh link while the invitation is pending; the older link stops working; refused once a password is set', async () => {
    const { member, link: first } = await invite();
    const res = await call('POST', `/staff/${member.userId}/invite`);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(`A new invitation was sent to ${member.email}; earlier links no longer work`);
    const second = t.mail.at(-1)!;
    expect(second).toMatchObject({ kind: 'invite', to: member.email });
    expect(second.link).not.toBe(first);
    const old = await t.app.inject({ method: 'POST', url: '/api/users/reset-password', payload: { token: tokenOf(first), newPassword: 'invitee-password-1' } });
    expect(old.statusCode).toBe(400);
    await accept(second.link, member.email);
    const done = await call('POST', `/staff/${member.userId}/invite`);
    expect(done.statusCode).toBe(409);
    expect(done.json().message).toBe(`${member.fullName} has already accepted the invitation and set a password`);
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

describe('GET /staff.csv (issue 24)', () => {
  it('exports the filtered staff list in its order, times in India time with the offset; only staff_manage', async () => {
    const { member } = await invite('Helpdesk');
    const res = await call('GET', `/staff.csv?q=${encodeURIComponent(member.email)}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body.replace(/^\uFEFF/, '').split('\r\n').filter(Boolean);
    expect(lines).toEqual([
      'User ID,Full Name,Email,Role,Status,Two-factor,Last Sign-in,Invitation',
      `${member.userId},${member.fullName},${member.email},Helpdesk,Active,Off,Never,Pending`,
    ]);
    const all = (await call('GET', '/staff.csv?sort=fullName')).body.split('\r\n').filter(Boolean);
    expect(all.length).toBe((await call('GET', '/staff?limit=500')).json().total + 1);
    expect(all.some((l) => l.includes(ADMIN_EMAIL) && /T\d{2}:\d{2}:\d{2}(\.\d{3})?\+05:30,/.test(l))).toBe(true);
    const viewer = bearer(await accountWithPermissions(t.database, ['users_view']));
    expect((await call('GET', '/staff.csv', undefined, viewer)).statusCode).toBe(403);
  });
});
