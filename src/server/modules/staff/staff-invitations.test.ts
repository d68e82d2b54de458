import { describe, expect, it } from 'vitest';
import { hashToken } from '../../lib/tokens.ts';
import { accountWithPermissions } from '../../test/accounts.ts';
import { ADMIN_EMAIL, bearer, confirmRegistration } from '../../test/harness.ts';
import { accept, adminId, call, invite, me, roleIds, setupStaffApp, t, tokenOf } from './staff-test-kit.ts';

setupStaffApp();

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
