import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, caller, createTestApp, type TestContext } from '../../test/harness.ts';
import { SEARCH_COUNT_MIN } from './member-list.repository.ts';

// A frequent search ("a": most of 1,500 members) has its count kept in search_counts; every
// kind of member write must keep that count equal to counting the table, and the page it comes
// with must be the same members in the same order as counting and sorting directly.
let t: TestContext;
let call: ReturnType<typeof caller>;
beforeAll(async () => {
  t = await createTestApp({ members: 1500 });
  call = caller(t, bearer(await t.login()));
});
afterAll(() => t.close());

const list = async (query: string) => {
  const res = await call('GET', `/api/users/getAllusers?${query}`);
  expect(res.statusCode).toBe(200);
  return res.json() as { total: number; users: { userId: number }[] };
};

/** The members the search means, counted and paged in SQL (the same rule as the list's). */
async function direct(term: string, level?: number) {
  const rows = await t.database.query<{ user_id: number }>(
    `select user_id from users where deleted_at is null and not can_sign_in and ($2::int is null or level = $2)
        and (lower(full_name) like '%' || $1 || '%' or email like $1 || '%') order by user_id desc`,
    [term, level ?? null],
  );
  return rows.map((r) => Number(r.user_id));
}

const kept = async () =>
  t.database.query<{ term: string; level_key: number; matches: number }>(
    'select term, level_key, matches::int from search_counts order by term, level_key',
  );

describe('kept counts of frequent searches', () => {
  it('keeps the count of a search with many matches, not of a rare one, and pages it like a direct query', async () => {
    const all = await direct('a');
    expect(all.length).toBeGreaterThanOrEqual(SEARCH_COUNT_MIN);
    const first = await list('search=A&page=2&limit=25');
    expect(first.total).toBe(all.length);
    expect(first.users.map((u) => u.userId)).toEqual(all.slice(25, 50));
    expect(await kept()).toEqual([{ term: 'a', level_key: 0, matches: all.length }]);
    // Answered from the kept count now: the same total and the same page.
    const second = await list('search=a&page=2&limit=25');
    expect(second).toMatchObject({ total: all.length });
    expect(second.users.map((u) => u.userId)).toEqual(all.slice(25, 50));
    // A page past the end of a kept search still reports its total (issue 23: one statement).
    const past = Math.ceil(all.length / 25) + 1;
    expect(await list(`search=a&page=${past}&limit=25`)).toMatchObject({ users: [], total: all.length, page: past });
    const rare = await list('search=zzqx');
    expect(rare.total).toBe(0);
    expect((await kept()).map((k) => k.term)).toEqual(['a']);
  });

  it('stays exact through registrations, edits, level and rank changes, soft deletes, restores and hard deletes', async () => {
    const levelTen = await direct('a', 10);
    await list('search=a');
    if (levelTen.length >= SEARCH_COUNT_MIN) await list('search=a&level=10');
    const reg = await call('POST', '/api/users/register', {
      fullName: 'Kavya Rana', dob: '1990-01-01', email: 'kept.count@test.local', phone: '9333300001',
    });
    expect(reg.statusCode).toBe(201);
    const newId = reg.json().user.userId;
    const victims = (await direct('a')).slice(0, 6);
    const edit = await call('PUT', `/api/users/updateByUserId/${victims[0]}`, { fullName: 'Zzz Xyz' });
    expect(edit.statusCode).toBe(200);
    const removal = await call('DELETE', `/api/users/deleteByUserId/${victims[1]}`);
    expect(removal.statusCode).toBe(200);
    await t.database.query(`update users set level = 10 where user_id = $1`, [victims[2]]);
    await t.database.query(`update users set level = 3, rank_id = 100002 where user_id = $1`, [victims[3]]);
    await t.database.query(`update users set deleted_at = now() where user_id = $1`, [victims[4]]);
    await t.database.query(`update users set deleted_at = null where user_id = $1`, [victims[4]]);
    await t.database.query(`insert into users (full_name, email, phone, referral_code, level) values
        ('Bulk Anand', 'bulk1@test.local', '9333300011', 'BULK1', 10), ('Bulk Oxo', 'bulk2@test.local', '9333300012', 'BULK2', 10)`);
    await t.database.query(`delete from users where email in ('bulk2@test.local', 'kept.count@test.local')`);
    await t.database.query(`update users set balance_paise = balance_paise where user_id = $1`, [victims[5]]); // no search column
    for (const k of await kept()) {
      const now = await direct(k.term, k.level_key || undefined);
      expect(k.matches, `${k.term} level ${k.level_key}`).toBe(now.length);
    }
    const answer = await list('search=a&limit=25');
    const now = await direct('a');
    expect(answer.total).toBe(now.length);
    expect(answer.users.map((u) => u.userId)).toEqual(now.slice(0, 25));
    expect(now).not.toContain(newId);
  });

  it('recounts a count older than ten minutes', async () => {
    await t.database.query(`update search_counts set matches = matches + 7, counted_at = now() - interval '11 minutes'`);
    const now = await direct('a');
    expect((await list('search=a')).total).toBe(now.length);
    expect((await kept()).find((k) => k.term === 'a' && k.level_key === 0)?.matches).toBe(now.length);
  });
});
