import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, caller, createTestApp, type TestContext } from '../../test/harness.ts';

// Issue 24: activate/deactivate members in bulk (the /users bulk bar), and "every member the filter matches".
let t: TestContext;
let call: ReturnType<typeof caller>;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp({ members: 60 });
  admin = bearer(await t.login());
  call = caller(t, admin);
});
afterAll(() => t.close());

let keys = 0;
const bulk = (ids: number[], status: boolean, key: string | null = `bulk-test-key-${++keys}`) =>
  t.app.inject({
    method: 'POST', url: '/api/users/bulk-status', payload: { ids, status },
    headers: { ...admin, ...(key ? { 'idempotency-key': key } : {}) },
  });
const members = async (n: number, where = 'true') =>
  (await t.database.query<{ user_id: number }>(
    `select user_id from users where not can_sign_in and deleted_at is null and ${where} order by user_id limit ${n}`)).map((r) => Number(r.user_id));
const statusOf = async (ids: number[]) =>
  Object.fromEntries((await t.database.query<{ user_id: number; status: boolean }>(
    'select user_id, status from users where user_id = any($1::int8[])', [ids])).map((r) => [Number(r.user_id), r.status]));
const audits = async (ids: number[]) =>
  Number((await t.database.query<{ n: number }>(
    `select count(*)::int as n from audit_log where entity = 'user' and action = 'update' and entity_id = any($1::text[])`, [ids.map(String)]))[0].n);
const stats = async () => (await call('GET', '/api/users/getAllUser')).json().data as Record<string, number>;

describe('POST /api/users/bulk-status', () => {
  it('deactivates members with an audit row each, reports the already-done ones and leaves staff and unknown ids untouched', async () => {
    const ids = await members(5, 'status');
    const [staff] = (await t.database.query<{ user_id: number; status: boolean }>('select user_id, status from users where can_sign_in order by user_id limit 1'));
    const before = await stats();
    const res = await bulk([...ids, Number(staff.user_id), 99_999_999], false);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.done).toEqual(ids.map((id) => ({ id })));
    expect(body.failed).toEqual([
      { id: Number(staff.user_id), message: 'This account signs in to the back-office, so it is managed on the Staff screen, not here' },
      { id: 99_999_999, message: 'User ID not found' },
    ]);
    expect(body.message).toBe('5 members deactivated, 0 already inactive, 2 not changed');
    expect(Object.values(await statusOf(ids))).toEqual([false, false, false, false, false]);
    expect((await statusOf([Number(staff.user_id)]))[Number(staff.user_id)]).toBe(staff.status);
    expect(await audits(ids)).toBe(5);
    expect(await audits([Number(staff.user_id)])).toBe(0);
    expect(await stats()).toMatchObject({ activeUsers: before.activeUsers - 5, inactiveUsers: before.inactiveUsers + 5 });

    // Idempotent: the same bulk again (a new key) changes nothing and says so; no second audit row.
    const again = await bulk(ids, false);
    expect(again.json().done).toEqual(ids.map((id) => ({ id, note: 'Already inactive' })));
    expect(again.json().message).toBe('0 members deactivated, 5 already inactive, 0 not changed');
    expect(await audits(ids)).toBe(5);

    // And back.
    const back = await bulk(ids, true);
    expect(back.json().done).toEqual(ids.map((id) => ({ id })));
    expect(await stats()).toEqual(before);
  });

  it('a retried chunk with the same Idempotency-Key replays its first answer', async () => {
    const ids = await members(3, 'status');
    const first = await bulk(ids, false, 'retry-me-12345');
    const retry = await bulk(ids, false, 'retry-me-12345');
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual(first.json());
    expect(first.json().done).toEqual(ids.map((id) => ({ id })));
    await bulk(ids, true);
  });

  it('two bulks at once on the same members change each member once', async () => {
    const ids = await members(40, 'status');
    const audited = await audits(ids);
    const [a, b] = await Promise.all([bulk(ids, false), bulk([...ids].reverse(), false)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const changed = [...a.json().done, ...b.json().done].filter((d: { note?: string }) => !d.note).map((d: { id: number }) => d.id);
    expect(changed.sort((x: number, y: number) => x - y)).toEqual(ids);
    expect(await audits(ids)).toBe(audited + 40);
    const [{ n }] = await t.database.query<{ n: number }>(`select count(*)::int as n from users where user_id = any($1::int8[]) and status`, [ids]);
    expect(n).toBe(0);
    await bulk(ids, true);
  });

  it('validates the ids: 1 to 500, whole numbers, each once; needs users_edit', async () => {
    expect((await bulk([], true)).json().message).toBe('Choose at least one member');
    const tooMany = await bulk(Array.from({ length: 501 }, (_, i) => i + 1), true);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().message).toBe('At most 500 members at a time');
    expect((await bulk([1, 1], true)).json().message).toBe('Each member may be named once');
    expect((await bulk([1.5], true)).statusCode).toBe(400);
    const plain = await t.app.inject({ method: 'POST', url: '/api/users/bulk-status', payload: { ids: [1], status: true } });
    expect(plain.statusCode).toBe(401);
  });
});

describe('GET /api/users/ids', () => {
  it('answers every member id the filter matches, never staff; above the cap it is refused with a message', async () => {
    const all = (await call('GET', '/api/users/ids')).json();
    expect(all.total).toBe(60);
    expect(all.ids).toEqual(await members(100));
    const [{ n: levelTwo }] = await t.database.query<{ n: number }>('select count(*)::int as n from users where level = 2 and deleted_at is null and not can_sign_in');
    expect((await call('GET', '/api/users/ids?level=2')).json().total).toBe(levelTwo);
    expect((await call('GET', '/api/users/ids?search=system')).json()).toEqual({ success: true, ids: [], total: 0 });
    expect((await call('GET', '/api/users/ids?level=abc')).statusCode).toBe(400);
  });
});
