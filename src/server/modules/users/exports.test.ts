import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ctx } from '../../lib/context.ts';
import { bearer, caller, createTestApp, csvExport, plainAccount, type TestContext } from '../../test/harness.ts';
import * as users from './users.service.ts';

// Issue 24: Export CSV on the Users, Bank, Ranks and Services lists (streamed, keyset batches).
let t: TestContext;
let call: ReturnType<typeof caller>;
let plain: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp({ members: 45 });
  call = caller(t, bearer(await t.login()));
  plain = await plainAccount(t);
});
afterAll(() => t.close());

/** The CSV's lines without the BOM, split into cells (none of these cells holds a comma). */
const csv = (url: string) => csvExport(call, url);

describe('exports', () => {
  it('users: the filtered list, every match by user id, never staff', async () => {
    const all = await csv('/api/users/members.csv');
    expect(all.header).toBe('User ID,Full Name,Email,Phone,Level,Rank,Referred By,Referral Code,Status,State,Joined');
    expect(all.res.headers['content-disposition']).toBe('attachment; filename="users.csv"');
    const ids = (await t.database.query<{ user_id: number }>('select user_id from users where not can_sign_in and deleted_at is null order by user_id'))
      .map((r) => String(r.user_id));
    expect(all.rows.map((r) => r.split(',')[0])).toEqual(ids);
    expect(all.res.body).not.toContain('System Administrator');
    expect(all.res.body).not.toContain('plain@test.local');
    // Times carry India's offset.
    expect(all.rows[0].split(',').at(-1)).toMatch(/\+05:30$/);
    const levelTwo = await csv('/api/users/members.csv?level=2');
    const [{ n }] = await t.database.query<{ n: number }>('select count(*)::int as n from users where level = 2 and deleted_at is null and not can_sign_in');
    expect(levelTwo.rows).toHaveLength(n);
    expect(levelTwo.rows.every((r) => r.split(',')[4] === '2')).toBe(true);
    const [first] = (await call('GET', '/api/users/getAllusers?sort=userId&limit=1')).json().users;
    const searched = await csv(`/api/users/members.csv?search=${encodeURIComponent(first.email)}`);
    expect(searched.rows.map((r) => r.split(',')[0])).toContain(String(first.userId));
    expect((await call('GET', '/api/users/members.csv?level=x')).statusCode).toBe(400);
    expect((await call('GET', '/api/users/members.csv', undefined, plain)).statusCode).toBe(403);
  });

  it('users: batches follow one another by user id (keyset), none repeated or skipped', async () => {
    const ctx = { database: t.database } as Ctx; // a batch reads only the database
    const seen: number[] = [];
    let after = 0;
    for (;;) {
      const batch = await users.membersBatch(ctx, {}, after, 7);
      seen.push(...batch.map((u) => u.userId));
      if (batch.length < 7) break;
      after = batch[batch.length - 1].userId;
    }
    expect(seen).toHaveLength(45);
    expect(new Set(seen).size).toBe(45);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    // A level or a rank walks its own index from the cursor: the same members as the table holds.
    for (const filter of [{ level: 2 }, { rankId: 100001 }, { level: 2, rankId: 100001 }]) {
      const walked: number[] = [];
      for (let from = 0; ;) {
        const batch = await users.membersBatch(ctx, filter, from, 3);
        walked.push(...batch.map((u) => u.userId));
        if (batch.length < 3) break;
        from = batch[batch.length - 1].userId;
      }
      const expected = (await t.database.query<{ user_id: number }>(
        `select user_id from users where deleted_at is null and not can_sign_in and ($1::int is null or level = $1) and ($2::int is null or rank_id = $2) order by user_id`,
        [filter.level ?? null, 'rankId' in filter ? filter.rankId : null])).map((r) => Number(r.user_id));
      expect(walked, JSON.stringify(filter)).toEqual(expected);
    }
  });

  it('bank: every live member\u2019s accounts, account numbers masked, never a staff account', async () => {
    const out = await csv('/api/banks/bankAccounts.csv');
    expect(out.header).toBe('Bank ID,User ID,Member,Account Holder,Account Number,IFSC,Bank,Branch,Primary,Added');
    const [{ n }] = await t.database.query<{ n: number }>(
      'select count(*)::int as n from bank_accounts b join users u using (user_id) where u.deleted_at is null and not u.can_sign_in');
    expect(n).toBeGreaterThan(0);
    expect(out.rows).toHaveLength(n);
    expect(out.rows.every((r) => /^X+\d{4}$/.test(r.split(',')[4]))).toBe(true);
    // A member who becomes staff leaves the export.
    const [first] = out.rows;
    const userId = Number(first.split(',')[1]);
    await t.database.query('update users set can_sign_in = true where user_id = $1', [userId]);
    expect((await csv('/api/banks/bankAccounts.csv')).rows.some((r) => r.split(',')[1] === String(userId))).toBe(false);
    await t.database.query('update users set can_sign_in = false where user_id = $1', [userId]);
    expect((await call('GET', '/api/banks/bankAccounts.csv', undefined, plain)).statusCode).toBe(403);
  });

  it('ranks and services', async () => {
    const ranks = await csv('/api/ranks/ranks.csv');
    expect(ranks.header).toBe('Rank ID,Name,Status,Position,Royalty weight,Minimum direct referrals,Minimum team size,Minimum team business (INR),Monthly reward (INR),Created');
    expect(ranks.rows.map((r) => r.split(',').slice(0, 3).join(','))).toEqual(expect.arrayContaining(['100001,Bronze,Active', '100005,Diamond,Inactive']));
    const services = await csv('/api/services/services.csv');
    expect(services.header).toBe('Service ID,Service Name,Service Type,Category,Status,Icon,Created');
    expect(services.rows.some((r) => r.includes(',Electricity Bill,electricity_bill,BBPS,'))).toBe(true);
    expect((await call('GET', '/api/ranks/ranks.csv', undefined, plain)).statusCode).toBe(403);
    expect((await call('GET', '/api/services/services.csv', undefined, plain)).statusCode).toBe(403);
  });
});
