import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountWithPermissions } from '../../test/accounts.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, caller, createTestApp, plainAccount, type TestContext } from '../../test/harness.ts';

let t: TestContext;
let admin: Record<string, string>;
let noPermission: Record<string, string>;
let call: ReturnType<typeof caller>;

beforeAll(async () => {
  t = await createTestApp({ members: 40 });
  admin = bearer(await t.login());
  noPermission = await plainAccount(t);
  call = caller(t, admin);
});
afterAll(() => t.close());

const get = (url: string, headers = admin) => call('GET', url, undefined, headers);
const send = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, headers = admin) => call(method, url, payload, headers);

let seq = 0;
const newMember = (extra: Record<string, unknown> = {}) => {
  seq += 1;
  return { fullName: `Test Member ${seq}`, dob: '1990-05-17', email: `test.member${seq}@test.local`, phone: `98000000${String(seq).padStart(2, '0')}`, ...extra };
};
const register = (payload: object) => send('POST', '/api/users/register', payload);

describe('GET /api/users/getAllusers', () => {
  it('pages through live members with the total of all matches and the fields of spec §3', async () => {
    const res = await get('/api/users/getAllusers?page=1&limit=10');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    // 40 demo members; the administrator and the plain account sign in: staff, not members (issue 24)
    expect(body).toMatchObject({ success: true, page: 1, limit: 10, total: 40 });
    expect(body.users).toHaveLength(10);
    const ids = body.users.map((u: { userId: number }) => u.userId);
    expect(ids).toEqual([...ids].sort((a, b) => b - a)); // newest first
    expect(Object.keys(body.users[0]).sort()).toEqual([
      '_id', 'address', 'companyName', 'createdAt', 'dob', 'email', 'fullName', 'image', 'lastLogin', 'level', 'phone', 'rank',
      'rankId', 'referralCode', 'referredBy', 'referrerName', 'role', 'state', 'status', 'userId', 'whatsapp',
    ]);
    const last = (await get('/api/users/getAllusers?page=4&limit=10')).json();
    expect(last.users).toHaveLength(10);
    expect(last.users.some((u: { fullName: string }) => u.fullName === 'System Administrator')).toBe(false);
  });

  it('filters by level and rank, counting exactly the matches', async () => {
    const [{ n: levelTwo }] = await t.database.query<{ n: number }>('select count(*)::int as n from users where level = 2 and deleted_at is null and not can_sign_in');
    const byLevel = (await get('/api/users/getAllusers?level=2&limit=100')).json();
    expect(byLevel.total).toBe(levelTwo);
    expect(byLevel.users.every((u: { level: number }) => u.level === 2)).toBe(true);
    const [{ n: gold }] = await t.database.query<{ n: number }>('select count(*)::int as n from users where rank_id = 100003 and deleted_at is null and not can_sign_in');
    const byRank = (await get('/api/users/getAllusers?rankId=100003&limit=100')).json();
    expect(byRank.total).toBe(gold);
    expect(byRank.users.every((u: { rank: string; rankId: number }) => u.rankId === 100003 && u.rank === 'Gold')).toBe(true);
  });

  it('issue 23: with the page and its total read together, every filter counts exactly and a page past the end still reports the total', async () => {
    const count = async (where: string) =>
      (await t.database.query<{ n: number }>(`select count(*)::int as n from users u where u.deleted_at is null and not u.can_sign_in and ${where}`))[0].n;
    const cases: [string, string][] = [
      ['', 'true'],
      ['level=3', 'u.level = 3'],
      ['rankId=100003', 'u.rank_id = 100003'],
      ['level=3&rankId=100003', 'u.level = 3 and u.rank_id = 100003'],
      ['search=an', `(lower(u.full_name) like '%an%' or u.email like 'an%')`],
      ['search=an&level=3', `u.level = 3 and (lower(u.full_name) like '%an%' or u.email like 'an%')`],
      ['search=zz_no_such', 'false'],
    ];
    for (const [query, where] of cases) {
      const total = await count(where);
      const first = (await get(`/api/users/getAllusers?${query}&limit=5`)).json();
      expect(first, query).toMatchObject({ total, page: 1, limit: 5 });
      expect(first.users, query).toHaveLength(Math.min(5, total));
      const past = Math.floor(total / 5) + 2;
      expect((await get(`/api/users/getAllusers?${query}&page=${past}&limit=5`)).json(), query).toEqual({
        success: true, users: [], total, page: past, limit: 5,
      });
    }
  });

  it('searches by name, email, phone or user id', async () => {
    const [m] = await t.database.query<{ user_id: number; full_name: string; email: string; phone: string }>(
      'select user_id, full_name, email, phone from users where level = 3 order by user_id limit 1',
    );
    const find = async (term: string) => (await get(`/api/users/getAllusers?search=${encodeURIComponent(term)}`)).json();
    expect((await find(m.full_name.split(' ')[1].toLowerCase())).users.map((u: { userId: number }) => u.userId)).toContain(m.user_id);
    expect((await find(m.email)).users.map((u: { userId: number }) => u.userId)).toEqual([m.user_id]);
    expect((await find(m.phone)).users.map((u: { userId: number }) => u.userId)).toContain(m.user_id);
    expect((await find(String(m.user_id))).users.map((u: { userId: number }) => u.userId)).toContain(m.user_id);
    const none = await find('zz_no_such%member');
    expect(none).toMatchObject({ users: [], total: 0 });
  });

  it('issue 15: sorts by user id, joined date, name, email, status and level, both ways, with stable pages', async () => {
    const columns = { userId: 'user_id', createdAt: 'created_at', fullName: 'lower(full_name)', email: 'email', status: 'status', level: 'level' };
    const idsOf = (body: { users: { userId: number }[] }) => body.users.map((u) => u.userId);
    for (const [key, column] of Object.entries(columns)) {
      for (const dir of ['asc', 'desc']) {
        const sort = dir === 'desc' ? `-${key}` : key;
        const expected = (await t.database.query<{ user_id: number }>(
          `select user_id from users where deleted_at is null and not can_sign_in order by ${column} ${dir}, user_id ${dir}`,
        )).map((r) => Number(r.user_id));
        const all = (await get(`/api/users/getAllusers?sort=${sort}&limit=500`)).json();
        expect(idsOf(all), sort).toEqual(expected);
        expect(idsOf((await get(`/api/users/getAllusers?sort=${sort}&limit=7&page=2`)).json()), sort).toEqual(expected.slice(7, 14));
      }
    }
    const levels = idsOf((await get('/api/users/getAllusers?sort=-level&limit=500')).json());
    const byId = new Map(((await get('/api/users/getAllusers?limit=500')).json().users as { userId: number; level: number }[]).map((u) => [u.userId, u.level]));
    expect(levels.map((id) => byId.get(id))).toEqual([...levels.map((id) => byId.get(id)!)].sort((a, b) => b - a));
    // A search collects its matches first, then sorts them the same way.
    const [{ term }] = await t.database.query<{ term: string }>(
      `select lower(split_part(full_name, ' ', 2)) as term from users where level = 2 and deleted_at is null limit 1`,
    );
    const found = (await get(`/api/users/getAllusers?search=${term}&sort=fullName&limit=500`)).json();
    const names = found.users.map((u: { fullName: string }) => u.fullName.toLowerCase());
    const sorted = (await t.database.query<{ user_id: number }>(
      `select user_id from users where user_id = any($1::int8[]) order by lower(full_name), user_id`, [idsOf(found)],
    )).map((r) => Number(r.user_id));
    expect(names.length).toBeGreaterThan(0);
    expect(idsOf(found)).toEqual(sorted);
  });

  it('issue 15 item 6: offers the levels members hold, level 11 and deeper included', async () => {
    let code: string | undefined;
    for (let level = 1; level <= 11; level += 1) {
      const res = await register(newMember(code ? { referralCode: code } : {}));
      code = res.json().user.referralCode;
      expect(res.json().user.level).toBe(level);
    }
    const res = await get('/api/users/levels');
    expect(res.statusCode).toBe(200);
    expect(res.json().levels).toEqual(expect.arrayContaining([1, 2, 11]));
    expect((await get('/api/users/getAllusers?level=11')).json()).toMatchObject({ total: 1, users: [{ level: 11 }] });
    expect((await get('/api/users/levels', noPermission)).statusCode).toBe(403);
  });

  it('rejects bad query values with 400 and needs users_view', async () => {
    expect((await get('/api/users/getAllusers?level=abc')).statusCode).toBe(400);
    expect((await get('/api/users/getAllusers?limit=100000')).statusCode).toBe(400);
    expect((await get('/api/users/getAllusers?sort=name')).statusCode).toBe(400);
    expect((await get('/api/users/getAllusers?sort=-phone')).statusCode).toBe(400);
    const denied = await get('/api/users/getAllusers', noPermission);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toMatch(/users_view/);
    expect((await t.app.inject({ method: 'GET', url: '/api/users/getAllusers' })).statusCode).toBe(401);
  });
});

describe('POST /api/users/register', () => {
  it('adds a direct member at level 1, answers the user, and audits it', async () => {
    const payload = newMember({ whatsapp: '', image: '' });
    const res = await register(payload);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ success: true, message: 'User created successfully' });
    expect(body.user).toMatchObject({
      fullName: payload.fullName, email: payload.email, phone: payload.phone, dob: '1990-05-17', level: 1, referredBy: null,
      referrerName: null, role: 'User', status: true, lastLogin: 'Never', whatsapp: null, image: null,
    });
    expect(body.user.referralCode).toBe(`BO${body.user.userId}`);
    const [entry] = await t.database.query<{ action: string; entity: string }>(
      'select action, entity from audit_log where entity_id = $1 order by id desc limit 1', [String(body.user.userId)],
    );
    expect(entry).toEqual({ action: 'create', entity: 'user' });
  });

  it('places a referred member one level below the referrer, by code or by user id', async () => {
    const referrer = (await register(newMember())).json().user;
    const byCode = (await register(newMember({ referralCode: referrer.referralCode.toLowerCase() }))).json().user;
    expect(byCode).toMatchObject({ referredBy: referrer.userId, referrerName: referrer.fullName, level: 2 });
    const byId = (await register(newMember({ referralCode: String(byCode.userId), whatsapp: '9123456789', image: 'https://img.test/a.png' }))).json().user;
    expect(byId).toMatchObject({ referredBy: byCode.userId, level: 3, whatsapp: '9123456789', image: 'https://img.test/a.png' });
  });

  it('refuses an unknown referral code with 400', async () => {
    const res = await register(newMember({ referralCode: 'NOPE123' }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, message: 'Invalid referral code' });
  });

  it('refuses a duplicate email or phone with 409', async () => {
    const first = newMember();
    expect((await register(first)).statusCode).toBe(201);
    const sameEmail = await register(newMember({ email: first.email.toUpperCase() }));
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json().message).toBe('A member with this email already exists');
    const samePhone = await register(newMember({ phone: first.phone }));
    expect(samePhone.statusCode).toBe(409);
    expect(samePhone.json().message).toBe('A member with this phone number already exists');
  });

  it('validates every field with 400 and a message', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ fullName: '' }, /Full name is required/],
      [{ dob: '17-05-1990' }, /real date/],
      [{ dob: '2999-01-01' }, /in the past/],
      [{ email: 'not-an-email' }, /valid email/],
      [{ phone: '12345' }, /10 to 13 digits/],
      [{ whatsapp: 'abc' }, /10 to 13 digits/],
      [{ image: 'not a url' }, /must be a URL/],
    ];
    for (const [override, message] of cases) {
      const res = await register(newMember(override));
      expect(res.statusCode, JSON.stringify(override)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    const missing = await register({});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors.map((e: { path: string }) => e.path)).toEqual(
      expect.arrayContaining(['body.fullName', 'body.dob', 'body.email', 'body.phone']),
    );
  });

  it('needs users_create', async () => {
    expect((await send('POST', '/api/users/register', newMember(), noPermission)).statusCode).toBe(403);
  });
});

describe('GET and PUT /api/users/updateByUserId/{id}', () => {
  it('fetches one member, or 404 for an unknown id and 400 for a malformed one', async () => {
    const created = (await register(newMember())).json().user;
    const res = await get(`/api/users/updateByUserId/${created.userId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, user: created });
    const unknown = await get('/api/users/updateByUserId/999999999');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ success: false, message: 'User ID not found' });
    expect((await get('/api/users/updateByUserId/abc')).statusCode).toBe(400);
  });

  it('updates the given fields, answers updatedUser, and audits before and after', async () => {
    const created = (await register(newMember())).json().user;
    const res = await send('PUT', `/api/users/updateByUserId/${created.userId}`, {
      fullName: 'Renamed Member', whatsapp: '9000011111', status: false, rankId: 100002,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true, message: 'User updated successfully',
      updatedUser: { userId: created.userId, fullName: 'Renamed Member', whatsapp: '9000011111', status: false, rank: 'Silver', email: created.email },
    });
    const [entry] = await t.database.query<{ before: { fullName: string }; after: { fullName: string } }>(
      `select before, after from audit_log where entity = 'user' and action = 'update' and entity_id = $1`, [String(created.userId)],
    );
    expect(entry.before.fullName).toBe(created.fullName);
    expect(entry.after.fullName).toBe('Renamed Member');
    const cleared = await send('PUT', `/api/users/updateByUserId/${created.userId}`, { whatsapp: '', rankId: null });
    expect(cleared.json().updatedUser).toMatchObject({ whatsapp: null, rankId: null, rank: null });
  });

  it('refuses taken contacts (409), bad values and unknown ranks (400), unknown ids (404), no permission (403)', async () => {
    const a = (await register(newMember())).json().user;
    const b = (await register(newMember())).json().user;
    const url = `/api/users/updateByUserId/${b.userId}`;
    expect((await send('PUT', url, { email: a.email })).statusCode).toBe(409);
    expect((await send('PUT', url, { phone: a.phone })).json().message).toBe('A member with this phone number already exists');
    expect((await send('PUT', url, { email: b.email })).statusCode).toBe(200); // its own email is fine
    expect((await send('PUT', url, { email: 'bad' })).statusCode).toBe(400);
    expect((await send('PUT', url, { rankId: 1 })).json()).toEqual({ success: false, message: 'Unknown rank' });
    expect((await send('PUT', '/api/users/updateByUserId/999999999', { fullName: 'X' })).statusCode).toBe(404);
    expect((await send('PUT', url, { fullName: 'X' }, noPermission)).statusCode).toBe(403);
  });
});

describe('DELETE /api/users/deleteByUserId/{userId}', () => {
  it('soft-deletes: the member answers 404 and leaves every list, their referrals keep them as referrer', async () => {
    const parent = (await register(newMember())).json().user;
    const child = (await register(newMember({ referralCode: parent.referralCode }))).json().user;
    const before = (await get('/api/users/getAllusers?limit=1')).json().total;
    const res = await send('DELETE', `/api/users/deleteByUserId/${parent.userId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'User deleted successfully' });
    expect((await get(`/api/users/updateByUserId/${parent.userId}`)).statusCode).toBe(404);
    expect((await get('/api/users/getAllusers?limit=1')).json().total).toBe(before - 1);
    expect((await get(`/api/users/getAllusers?search=${parent.userId}`)).json().users).toEqual([]);
    expect((await get(`/api/users/getAllusers?level=1&limit=500`)).json().users.some((u: { userId: number }) => u.userId === parent.userId)).toBe(false);
    expect((await get(`/api/users/updateByUserId/${child.userId}`)).json().user).toMatchObject({ referredBy: parent.userId, referrerName: parent.fullName });
    const [row] = await t.database.query<{ deleted: boolean }>('select deleted_at is not null as deleted from users where user_id = $1', [parent.userId]);
    expect(row.deleted).toBe(true);
    expect((await send('DELETE', `/api/users/deleteByUserId/${parent.userId}`)).statusCode).toBe(404);
    // The email is free again for a new member.
    expect((await register(newMember({ email: parent.email, phone: parent.phone }))).statusCode).toBe(201);
    const [entry] = await t.database.query<{ action: string }>(`select action from audit_log where entity = 'user' and entity_id = $1 order by id desc limit 1`, [String(parent.userId)]);
    expect(entry.action).toBe('delete');
  });

  it('refuses deleting oneself (409), unknown ids (404), without users_delete (403)', async () => {
    const [me] = await t.database.query<{ user_id: number }>(`select user_id from users where email = 'admin@test.local'`);
    const self = await send('DELETE', `/api/users/deleteByUserId/${me.user_id}`);
    expect(self.statusCode).toBe(409);
    expect(self.json().message).toBe('You cannot delete your own account');
    expect((await send('DELETE', '/api/users/deleteByUserId/999999999')).statusCode).toBe(404);
    expect((await send('DELETE', '/api/users/deleteByUserId/abc')).statusCode).toBe(400);
    const victim = (await register(newMember())).json().user;
    expect((await send('DELETE', `/api/users/deleteByUserId/${victim.userId}`, undefined, noPermission)).statusCode).toBe(403);
  });
});

describe('GET /api/users/getUsersByRank', () => {
  it('lists the live holders of a rank; 400 without rankId, 404 for an unknown rank, 403 without users_view', async () => {
    const res = (await get('/api/users/getUsersByRank?rankId=100001&limit=500')).json();
    expect(res.success).toBe(true);
    expect(res.users.length).toBe(res.total);
    expect(res.users.every((u: { rank: string }) => u.rank === 'Bronze')).toBe(true);
    expect((await get('/api/users/getUsersByRank')).statusCode).toBe(400);
    expect((await get('/api/users/getUsersByRank?rankId=424242')).statusCode).toBe(404);
    expect((await get('/api/users/getUsersByRank?rankId=100001', noPermission)).statusCode).toBe(403);
  });
});

describe('members are not staff (issue 13)', () => {
  const adminRow = async () =>
    (await t.database.query<{ user_id: number; email: string; status: boolean; deleted: boolean; role: string }>(
      `select u.user_id, u.email, u.status, u.deleted_at is not null as deleted, r.name as role
         from users u join roles r on r.role_id = u.role_id where u.email = $1`, [ADMIN_EMAIL],
    ))[0];

  it('finding 2: a member editor cannot change an administrator’s email, deactivate or delete it, so the takeover chain fails', async () => {
    const editor = bearer(await accountWithPermissions(t.database, ['users_view', 'users_edit', 'users_delete']));
    const before = await adminRow();
    const url = `/api/users/updateByUserId/${before.user_id}`;
    const email = await send('PUT', url, { email: 'attacker@example.com' }, editor);
    expect(email.statusCode).toBe(403);
    expect(email.json()).toEqual({ success: false, message: 'This account signs in to the back-office, so it is managed on the Staff screen, not here' });
    expect((await send('PUT', url, { status: false }, editor)).statusCode).toBe(403);
    const del = await send('DELETE', `/api/users/deleteByUserId/${before.user_id}`, undefined, editor);
    expect(del.statusCode).toBe(403);
    expect(del.json().message).toBe('This account signs in to the back-office and cannot be deleted here; deactivate it on the Staff screen');
    expect(await adminRow()).toEqual(before);

    // The rest of the chain: forgot-password for the attacker's address mails nothing, and nothing signs in.
    const mails = t.mail.length;
    const forgot = await t.app.inject({ method: 'POST', url: '/api/users/forgot-password', payload: { email: 'attacker@example.com' } });
    expect(forgot.statusCode).toBe(200);
    expect(t.mail.slice(mails).filter((m) => m.to === 'attacker@example.com')).toEqual([]);
    const reset = await t.app.inject({ method: 'POST', url: '/api/users/reset-password', payload: { token: 'guessed-token-0000000000', newPassword: 'attacker-password' } });
    expect(reset.statusCode).toBe(400);
    const login = await t.app.inject({ method: 'POST', url: '/api/Adminlogin', payload: { email: 'attacker@example.com', password: 'attacker-password' } });
    expect(login.statusCode).toBe(401);
    await t.login(ADMIN_EMAIL, ADMIN_PASSWORD);
  });

  it('even an administrator edits staff only on the Staff screen; members stay editable', async () => {
    const [self] = await t.database.query<{ user_id: number }>('select user_id from users where email = $1', [ADMIN_EMAIL]);
    expect((await send('PUT', `/api/users/updateByUserId/${self.user_id}`, { fullName: 'Renamed Admin' })).statusCode).toBe(403);
    const member = (await register(newMember())).json().user;
    expect((await send('PUT', `/api/users/updateByUserId/${member.userId}`, { fullName: 'Still A Member' })).statusCode).toBe(200);
  });

  it('finding 1: role or roleId in the member update body is refused with 400 instead of being ignored', async () => {
    const member = (await register(newMember())).json().user;
    const [admin] = await t.database.query<{ role_id: number }>(`select role_id from roles where name = 'Admin'`);
    for (const body of [{ role: 'Admin' }, { roleId: admin.role_id }, { fullName: 'Sneaky', roleId: admin.role_id }]) {
      const res = await send('PUT', `/api/users/updateByUserId/${member.userId}`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ success: false, message: 'Roles are assigned on the Staff screen, not on member records' });
    }
    const [row] = await t.database.query<{ role_id: number | null; full_name: string; can_sign_in: boolean }>(
      'select role_id, full_name, can_sign_in from users where user_id = $1', [member.userId],
    );
    expect(row).toMatchObject({ full_name: member.fullName, can_sign_in: false });
    expect(row.role_id).not.toBe(admin.role_id);
  });
});
