import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestContext } from '../../test/harness.ts';

let t: TestContext;
let admin: Record<string, string>;
let noPermission: Record<string, string>;
/** root → a, b, c; a → a1, a2; a1 → a11; b → b1, and b is then deleted. */
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  admin = bearer(await t.login());
  const reg = await t.app.inject({
    method: 'POST',
    url: '/api/register',
    payload: { name: 'genuser', fullName: 'Gen User', email: 'gen@test.local', phone: '9111111112', address: 'Pune', password: 'gen-password' },
  });
  noPermission = bearer(reg.json().token);
  let n = 0;
  const add = async (name: string, referrer?: string) => {
    n += 1;
    const res = await t.app.inject({
      method: 'POST', url: '/api/users/register', headers: admin,
      payload: { fullName: `Gen ${name}`, dob: '1988-01-01', email: `gen${n}@test.local`, phone: `96000000${String(n).padStart(2, '0')}`, referralCode: referrer ? String(ids[referrer]) : undefined },
    });
    expect(res.statusCode).toBe(201);
    ids[name] = res.json().user.userId;
  };
  await add('root');
  for (const child of ['a', 'b', 'c']) await add(child, 'root');
  await add('a1', 'a');
  await add('a2', 'a');
  await add('a11', 'a1');
  await add('b1', 'b');
  await t.app.inject({ method: 'DELETE', url: `/api/users/deleteByUserId/${ids.b}`, headers: admin });
});
afterAll(() => t.close());

const children = (query: string, headers = admin) => t.app.inject({ method: 'GET', url: `/api/network/children?${query}`, headers });

describe('GET /api/network/children', () => {
  it('answers a page of direct referrals, oldest first, each with their own direct-referral count', async () => {
    const res = await children(`userId=${ids.root}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, userId: ids.root, total: 3, page: 1, limit: 20 });
    expect(body.data.map((m: { userId: number }) => m.userId)).toEqual([ids.a, ids.b, ids.c]);
    expect(body.data[0]).toMatchObject({ fullName: 'Gen a', level: 2, status: true, deleted: false, directReferrals: 2 });
    expect(body.data[2]).toMatchObject({ fullName: 'Gen c', directReferrals: 0 });
    expect(new Date(body.data[0].createDate).toString()).not.toBe('Invalid Date');
  });

  it('keeps a deleted member in the tree, marked, and still opens their branch', async () => {
    const root = (await children(`userId=${ids.root}`)).json();
    expect(root.data[1]).toMatchObject({ userId: ids.b, deleted: true, directReferrals: 1 });
    const branch = await children(`userId=${ids.b}`);
    expect(branch.statusCode).toBe(200);
    expect(branch.json()).toMatchObject({ total: 1, data: [{ userId: ids.b1, deleted: false, directReferrals: 0 }] });
  });

  it('pages: the total stays, a page past the end is empty, a leaf has none', async () => {
    expect((await children(`userId=${ids.root}&limit=2&page=2`)).json()).toMatchObject({ total: 3, page: 2, limit: 2, data: [{ userId: ids.c }] });
    expect((await children(`userId=${ids.root}&limit=2&page=9`)).json()).toMatchObject({ total: 3, data: [] });
    expect((await children(`userId=${ids.a11}`)).json()).toMatchObject({ total: 0, data: [] });
  });

  it('refuses bad input with 400, an unknown member with 404, and callers without users_view with 403', async () => {
    for (const q of ['', 'userId=abc', 'userId=0', `userId=${ids.root}&limit=101`, `userId=${ids.root}&page=0`]) {
      const res = await children(q);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().success).toBe(false);
    }
    const unknown = await children('userId=987654321');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('User ID not found');
    expect((await children(`userId=${ids.root}`, noPermission)).statusCode).toBe(403);
    expect((await children(`userId=${ids.root}`, {})).statusCode).toBe(401);
  });
});
