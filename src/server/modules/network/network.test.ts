import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, caller, createTestApp, plainAccount, type TestContext } from '../../test/harness.ts';

let t: TestContext;
let admin: Record<string, string>;
let noPermission: Record<string, string>;
let call: ReturnType<typeof caller>;
/** The downline's network: root → a, b; a → a1, a2; a1 → a11; b → b1, and b is then deleted. */
const ids: Record<string, number> = {};
/** The genealogy's network: root → a, b, c; a → a1, a2; a1 → a11; b → b1, and b is then deleted. */
const gen: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  admin = bearer(await t.login());
  noPermission = await plainAccount(t);
  call = caller(t, admin);
  let n = 0;
  const add = async (tree: Record<string, number>, prefix: string, name: string, referrer?: string) => {
    n += 1;
    const res = await call('POST', '/api/users/register', {
      fullName: `${prefix} ${name}`, dob: '1988-01-01', email: `net${n}@test.local`, phone: `97000000${String(n).padStart(2, '0')}`,
      referralCode: referrer ? String(tree[referrer]) : undefined,
    });
    expect(res.statusCode).toBe(201);
    tree[name] = res.json().user.userId;
  };
  for (const [tree, prefix, children] of [[ids, 'Net', ['a', 'b']], [gen, 'Gen', ['a', 'b', 'c']]] as const) {
    await add(tree, prefix, 'root');
    for (const child of children) await add(tree, prefix, child, 'root');
    await add(tree, prefix, 'a1', 'a');
    await add(tree, prefix, 'a2', 'a');
    await add(tree, prefix, 'a11', 'a1');
    await add(tree, prefix, 'b1', 'b');
    await call('DELETE', `/api/users/deleteByUserId/${tree.b}`);
  }
});
afterAll(() => t.close());

const get = (url: string, headers = admin) => call('GET', url, undefined, headers);
const children = (query: string, headers = admin) => get(`/api/network/children?${query}`, headers);

describe('GET /api/users/downline', () => {
  it('answers statusCode, message, totalMember and the direct referrals with the downline fields', async () => {
    const res = await get(`/api/users/downline?userId=${ids.a}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ statusCode: 200, totalMember: 2 });
    expect(typeof body.message).toBe('string');
    expect(body.data.map((m: { userId: number }) => m.userId)).toEqual([ids.a1, ids.a2]); // oldest first
    expect(Object.keys(body.data[0]).sort()).toEqual(['createDate', 'fullName', 'level', 'state', 'status', 'userId']);
    expect(body.data[0]).toMatchObject({ fullName: 'Net a1', level: 3, state: null, status: true });
    expect(new Date(body.data[0].createDate).toString()).not.toBe('Invalid Date');
  });

  it('leaves deleted members out, pages, and answers an empty list for a leaf', async () => {
    expect((await get(`/api/users/downline?userId=${ids.root}`)).json().data.map((m: { userId: number }) => m.userId)).toEqual([ids.a]);
    const paged = (await get(`/api/users/downline?userId=${ids.a}&limit=1&page=2`)).json();
    expect(paged).toMatchObject({ totalMember: 2, data: [{ userId: ids.a2 }] });
    expect((await get(`/api/users/downline?userId=${ids.a11}`)).json()).toMatchObject({ statusCode: 200, totalMember: 0, data: [] });
  });

  it('issue 23: a page past the end still reports the total (page and count are one statement)', async () => {
    expect((await get(`/api/users/downline?userId=${ids.a}&limit=1&page=5`)).json()).toEqual({
      statusCode: 200, message: 'Downline fetched successfully', totalMember: 2, data: [],
    });
  });

  it('issue 15 item 14: lists the direct referrals in the order the network view shows its first level', async () => {
    const downline = (await get(`/api/users/downline?userId=${ids.a}`)).json();
    const tree = (await get(`/api/users/downline-tree?userId=${ids.a}`)).json();
    expect(downline.data.map((m: { userId: number }) => m.userId)).toEqual(tree.levels[0].members.map((m: { userId: number }) => m.userId));
  });

  it('400 without a valid userId, 404 for unknown or deleted members, 403 without users_view', async () => {
    expect((await get('/api/users/downline')).statusCode).toBe(400);
    expect((await get('/api/users/downline?userId=x')).statusCode).toBe(400);
    expect((await get('/api/users/downline?userId=999999999')).statusCode).toBe(404);
    expect((await get(`/api/users/downline?userId=${ids.b}`)).statusCode).toBe(404);
    expect((await get(`/api/users/downline?userId=${ids.a}`, noPermission)).statusCode).toBe(403);
  });
});

describe('GET /api/users/getUserUpline/{id}', () => {
  it('returns the chain of referrers up to the root, nearest first', async () => {
    const body = (await get(`/api/users/getUserUpline/${ids.a11}`)).json();
    expect(body).toMatchObject({ success: true, userId: ids.a11, total: 3 });
    expect(body.data.map((m: { userId: number }) => m.userId)).toEqual([ids.a1, ids.a, ids.root]);
    expect(body.data[2]).toMatchObject({ fullName: 'Net root', level: 1, referralCode: `BO${ids.root}`, status: true });
    expect((await get(`/api/users/getUserUpline/${ids.root}`)).json()).toMatchObject({ total: 0, data: [] });
    // A deleted referrer stays in the history of who brought whom.
    expect((await get(`/api/users/getUserUpline/${ids.b1}`)).json().data.map((m: { userId: number }) => m.userId)).toEqual([ids.b, ids.root]);
  });

  it('404 for an unknown member, 400 for a malformed id, 403 without users_view', async () => {
    expect((await get('/api/users/getUserUpline/999999999')).statusCode).toBe(404);
    expect((await get('/api/users/getUserUpline/-1')).statusCode).toBe(400);
    expect((await get(`/api/users/getUserUpline/${ids.a}`, noPermission)).statusCode).toBe(403);
  });
});

describe('GET /api/users/getReferral/{id}', () => {
  it('returns the referral code, referrer and count of direct referrals', async () => {
    const body = (await get(`/api/users/getReferral/${ids.a}`)).json();
    expect(body).toEqual({
      success: true,
      data: { userId: ids.a, fullName: 'Net a', referralCode: `BO${ids.a}`, level: 2, referredBy: ids.root, referrerName: 'Net root', directReferrals: 2 },
    });
    expect((await get('/api/users/getReferral/999999999')).statusCode).toBe(404);
    expect((await get(`/api/users/getReferral/${ids.a}`, noPermission)).statusCode).toBe(403);
  });
});

describe('GET /api/users/downline-tree', () => {
  it('counts every level under a member and returns the first members of each', async () => {
    const body = (await get(`/api/users/downline-tree?userId=${ids.root}`)).json();
    expect(body).toMatchObject({ success: true, depth: 10, user: { userId: ids.root, fullName: 'Net root' } });
    // b is deleted: not counted, but b1 (who keeps b as referrer) still belongs to the network.
    expect(body.levels.map((l: { depth: number; count: number }) => [l.depth, l.count])).toEqual([[1, 1], [2, 3], [3, 1]]);
    expect(body.totalMember).toBe(5);
    expect(body.levels[1].members.map((m: { userId: number }) => m.userId)).toEqual([ids.a1, ids.a2, ids.b1]);
  });

  it('issue 23: the levels the database sends as JSON carry exactly the downline\'s fields, times in UTC to the millisecond', async () => {
    const before = await t.database.query<{ user_id: number; created_at: string }>(
      'select user_id, created_at::text from users where user_id = any($1::int8[])', [[ids.a1, ids.a2]],
    );
    await t.database.query(`update users set created_at = '2031-02-03 04:05:06.789999+00' where user_id = $1`, [ids.a1]);
    await t.database.query(`update users set created_at = '1999-12-31 23:59:59.0005+00' where user_id = $1`, [ids.a2]);
    try {
      const downline = (await get(`/api/users/downline?userId=${ids.a}`)).json();
      const tree = (await get(`/api/users/downline-tree?userId=${ids.a}`)).json();
      expect(tree.levels[0].members).toEqual(downline.data);
      expect(tree.levels[0].members.map((m: { createDate: string }) => m.createDate)).toEqual(['2031-02-03T04:05:06.789Z', '1999-12-31T23:59:59.000Z']);
      expect(tree.user).toEqual({ userId: ids.a, fullName: 'Net a', level: 2, referralCode: expect.any(String), status: true });
    } finally {
      for (const b of before) await t.database.query('update users set created_at = $2::timestamptz where user_id = $1', [b.user_id, b.created_at]);
    }
  });

  it('honours depth and limit', async () => {
    const body = (await get(`/api/users/downline-tree?userId=${ids.root}&depth=2&limit=1`)).json();
    expect(body.levels.map((l: { count: number; members: unknown[] }) => [l.count, l.members.length])).toEqual([[1, 1], [3, 1]]);
    expect(body.totalMember).toBe(4);
    expect((await get(`/api/users/downline-tree?userId=${ids.a11}`)).json()).toMatchObject({ totalMember: 0, levels: [] });
  });

  it('400 for depth beyond 10 or no userId, 404 for an unknown member, 403 without users_view', async () => {
    expect((await get(`/api/users/downline-tree?userId=${ids.root}&depth=11`)).statusCode).toBe(400);
    expect((await get('/api/users/downline-tree')).statusCode).toBe(400);
    expect((await get('/api/users/downline-tree?userId=999999999')).statusCode).toBe(404);
    expect((await get(`/api/users/downline-tree?userId=${ids.root}`, noPermission)).statusCode).toBe(403);
  });

  it('shows the lowest live ids of a large level, also when most of its first hundred are deleted', async () => {
    // 130 referrals of a11 and one grandchild under the highest; then the lowest 95 are deleted.
    await t.database.query(
      `insert into users (full_name, email, phone, referral_code, referred_by, level)
       select 'Wide ' || i, 'wide' || i || '@test.local', '95000' || lpad(i::text, 5, '0'), 'WIDE' || i, $1, 5
         from generate_series(1, 130) as i`,
      [ids.a11],
    );
    const wide = (await t.database.query<{ user_id: number }>(`select user_id from users where email like 'wide%' order by user_id`))
      .map((r) => Number(r.user_id));
    await t.database.query(
      `insert into users (full_name, email, phone, referral_code, referred_by, level) values ('Wide child', 'widechild@test.local', '9400000001', 'WIDEC', $1, 6)`,
      [wide[129]],
    );
    const first = (await get(`/api/users/downline-tree?userId=${ids.a11}&limit=5`)).json();
    expect(first.levels.map((l: { count: number }) => l.count)).toEqual([130, 1]);
    expect(first.levels[0].members.map((m: { userId: number }) => m.userId)).toEqual(wide.slice(0, 5));
    await t.database.query(`update users set deleted_at = now() where user_id = any($1::int8[])`, [wide.slice(0, 95)]);
    const after = (await get(`/api/users/downline-tree?userId=${ids.a11}&limit=10`)).json();
    expect(after.levels.map((l: { count: number }) => l.count)).toEqual([35, 1]);
    expect(after.levels[0].members.map((m: { userId: number }) => m.userId)).toEqual(wide.slice(95, 105));
    expect(after.levels[1].members.map((m: { fullName: string }) => m.fullName)).toEqual(['Wide child']);
    await t.database.query(`delete from users where email like 'wide%'`);
  });

  it('walks a seeded ten-level network and agrees with the stored levels', async () => {
    const seeded = await createTestApp({ members: 300 });
    try {
      const token = bearer(await seeded.login());
      const [root] = await seeded.database.query<{ user_id: number }>(
        `select user_id from users where level = 1 and password_hash is null order by (select count(*) from users c where c.referred_by = users.user_id) desc limit 1`,
      );
      const body = (await seeded.app.inject({ method: 'GET', url: `/api/users/downline-tree?userId=${root.user_id}`, headers: token })).json();
      for (const level of body.levels) {
        expect(level.members.every((m: { level: number }) => m.level === level.depth + 1)).toBe(true);
      }
      expect(body.levels.length).toBeGreaterThan(3);
    } finally {
      await seeded.close();
    }
  });
});

describe('GET /api/network/children', () => {
  it('answers a page of direct referrals, oldest first, each with their own direct-referral count', async () => {
    const res = await children(`userId=${gen.root}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, userId: gen.root, total: 3, page: 1, limit: 20 });
    expect(body.data.map((m: { userId: number }) => m.userId)).toEqual([gen.a, gen.b, gen.c]);
    expect(body.data[0]).toMatchObject({ fullName: 'Gen a', level: 2, status: true, deleted: false, directReferrals: 2 });
    expect(body.data[2]).toMatchObject({ fullName: 'Gen c', directReferrals: 0 });
    expect(new Date(body.data[0].createDate).toString()).not.toBe('Invalid Date');
  });

  it('keeps a deleted member in the tree, marked, and still opens their branch', async () => {
    const root = (await children(`userId=${gen.root}`)).json();
    expect(root.data[1]).toMatchObject({ userId: gen.b, deleted: true, directReferrals: 1 });
    const branch = await children(`userId=${gen.b}`);
    expect(branch.statusCode).toBe(200);
    expect(branch.json()).toMatchObject({ total: 1, data: [{ userId: gen.b1, deleted: false, directReferrals: 0 }] });
  });

  it('pages: the total stays, a page past the end is empty, a leaf has none', async () => {
    expect((await children(`userId=${gen.root}&limit=2&page=2`)).json()).toMatchObject({ total: 3, page: 2, limit: 2, data: [{ userId: gen.c }] });
    expect((await children(`userId=${gen.root}&limit=2&page=9`)).json()).toMatchObject({ total: 3, data: [] });
    expect((await children(`userId=${gen.a11}`)).json()).toMatchObject({ total: 0, data: [] });
  });

  it('refuses bad input with 400, an unknown member with 404, and callers without users_view with 403', async () => {
    for (const q of ['', 'userId=abc', 'userId=0', `userId=${gen.root}&limit=101`, `userId=${gen.root}&page=0`]) {
      const res = await children(q);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().success).toBe(false);
    }
    const unknown = await children('userId=987654321');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('User ID not found');
    expect((await children(`userId=${gen.root}`, noPermission)).statusCode).toBe(403);
    expect((await children(`userId=${gen.root}`, {})).statusCode).toBe(401);
  });
});
