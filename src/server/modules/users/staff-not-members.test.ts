import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountWithPermissions } from '../../test/accounts.ts';
import { bearer, caller, createTestApp, plainAccount, type TestContext } from '../../test/harness.ts';

// Issue 24 item 2: staff (accounts that sign in to the panel) are not members (decisions.md):
// never counted on the dashboard, never listed or found as members, no bank account, no level.
let t: TestContext;
let call: ReturnType<typeof caller>;

beforeAll(async () => {
  t = await createTestApp({ members: 30 });
  call = caller(t, bearer(await t.login()));
  await plainAccount(t); // a self-registered account: it signs in, so it is staff too
});
afterAll(() => t.close());

const stats = async () => (await call('GET', '/api/users/getAllUser')).json().data as Record<string, number>;
const list = async (query = '') => (await call('GET', `/api/users/getAllusers?limit=100${query}`)).json() as {
  total: number; users: { userId: number; fullName: string; level: number }[];
};
const staffIds = async () =>
  (await t.database.query<{ user_id: number }>('select user_id from users where can_sign_in and deleted_at is null order by user_id')).map((r) => Number(r.user_id));

/** The counts as the tables give them, members only. */
async function counted() {
  const [row] = await t.database.query<Record<string, number>>(`select
      (select count(*)::int from users where deleted_at is null and not can_sign_in) as "totalUsers",
      (select count(*)::int from users where deleted_at is null and not can_sign_in and status) as "activeUsers",
      (select count(*)::int from users where deleted_at is null and not can_sign_in and not status) as "inactiveUsers",
      (select count(*)::int from memberships m join users u using (user_id) where u.deleted_at is null and not u.can_sign_in) as "membershipUsers"`);
  return row;
}

describe('staff are not members', () => {
  it('the dashboard counts members only: the administrator and a self-registered account are not counted', async () => {
    expect((await staffIds()).length).toBeGreaterThanOrEqual(2);
    const s = await stats();
    expect(s.totalUsers).toBe(30);
    expect(s).toEqual(await counted());
  });

  it('the users list, its total, its search and its level filter never show staff', async () => {
    const staff = await staffIds();
    const all = await list();
    expect(all.total).toBe(30);
    expect(all.users.some((u) => staff.includes(u.userId))).toBe(false);
    // The header's member search is the same list, searched.
    const byName = await list('&search=system%20administrator');
    expect(byName).toMatchObject({ total: 0, users: [] });
    const byId = await list(`&search=${staff[0]}`);
    expect(byId.total).toBe(0);
    const byPlain = await list('&search=plain');
    expect(byPlain.total).toBe(0);
    // No "Level 0": the levels offered are the members' own.
    const levels = (await call('GET', '/api/users/levels')).json().levels as number[];
    expect(levels).not.toContain(0);
    expect((await list('&level=0')).total).toBe(0);
  });

  it('a staff account is not read as a member: 404 like an unknown id, for any holder of users_view', async () => {
    const [admin, plain] = await staffIds();
    const support = caller(t, bearer(await accountWithPermissions(t.database, ['users_view'])));
    for (const id of [admin, plain]) {
      const res = await support('GET', `/api/users/updateByUserId/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ success: false, message: 'User ID not found' });
    }
    const [member] = (await list()).users;
    expect((await support('GET', `/api/users/updateByUserId/${member.userId}`)).statusCode).toBe(200);
  });

  it('an account becoming staff leaves every count, list and kept search count; ceasing to be staff brings it back', async () => {
    const [m] = await t.database.query<{ user_id: number; level: number; full_name: string; referred_by: number | null }>(
      `select u.user_id, u.level, u.full_name, u.referred_by from users u
        where not can_sign_in and deleted_at is null and status and referred_by is not null
          and exists (select 1 from memberships where user_id = u.user_id) order by user_id limit 1`,
    );
    const before = await stats();
    const levelBefore = (await list(`&level=${m.level}`)).total;
    const downline = async () => (await call('GET', `/api/users/downline?userId=${m.referred_by}&limit=100`)).json();
    const downBefore = await downline();
    // A kept (frequent) search count follows too: plant one for this member's level.
    await t.database.query(`insert into search_counts (term, level_key, rank_key, matches)
      select 'a', level, 0, count(*) from users where deleted_at is null and not can_sign_in and level = $1
         and (lower(full_name) like '%a%' or email like 'a%') group by level`, [m.level]);
    const keptCount = async () => Number((await t.database.query<{ matches: number }>(
      `select matches from search_counts where term = 'a' and level_key = $1`, [m.level]))[0].matches);
    const keptBefore = await keptCount();
    const matchesA = m.full_name.toLowerCase().includes('a') ? 1 : 0;

    await t.database.query('update users set can_sign_in = true where user_id = $1', [m.user_id]);
    expect(await stats()).toEqual({
      totalUsers: before.totalUsers - 1, activeUsers: before.activeUsers - 1,
      inactiveUsers: before.inactiveUsers, membershipUsers: before.membershipUsers - 1,
    });
    expect(await stats()).toEqual(await counted());
    expect((await list(`&level=${m.level}`)).total).toBe(levelBefore - 1);
    expect((await list(`&search=${m.user_id}`)).total).toBe(0);
    expect(await keptCount()).toBe(keptBefore - matchesA);
    const downAfter = await downline();
    expect(downAfter.totalMember).toBe(downBefore.totalMember - 1);
    expect(JSON.stringify(downAfter)).not.toContain(`"userId":${m.user_id},`);
    const [{ members: depthOne }] = await t.database.query<{ members: number }>(
      'select members::int from downline_counts where ancestor_id = $1 and depth = 1', [m.referred_by]);
    const [{ n: liveDirect }] = await t.database.query<{ n: number }>(
      'select count(*)::int as n from users where referred_by = $1 and deleted_at is null and not can_sign_in', [m.referred_by]);
    expect(depthOne).toBe(liveDirect);

    await t.database.query('update users set can_sign_in = false where user_id = $1', [m.user_id]);
    expect(await stats()).toEqual(before);
    expect((await list(`&level=${m.level}`)).total).toBe(levelBefore);
    expect(await keptCount()).toBe(keptBefore);
    expect(JSON.stringify(await downline())).toBe(JSON.stringify(downBefore));
  });

  it('a new staff account (an invitation) moves no member count', async () => {
    const before = await stats();
    const res = await call('POST', '/api/users/register', {
      fullName: 'Future Staff', dob: '1990-01-01', email: 'future.staff@test.local', phone: '9555500001',
    });
    expect(res.statusCode).toBe(201);
    expect((await stats()).totalUsers).toBe(before.totalUsers + 1);
    await t.database.query(`insert into users (full_name, email, phone, referral_code, level, can_sign_in)
      values ('Invited Colleague', 'colleague@test.local', '9000000777', 'STAFFTEST1', 0, true)`);
    expect((await stats()).totalUsers).toBe(before.totalUsers + 1);
    expect(await stats()).toEqual(await counted());
  });

  it('no bank account for staff: adding one is refused, and the bank list shows none', async () => {
    const [admin] = await staffIds();
    const add = await call('POST', '/api/banks/createBankAccount', {
      userId: admin, accountHolderName: 'Admin', accountNumber: '123456789012', ifsc: 'HDFC0000123', bank: 'HDFC Bank',
    });
    expect(add.statusCode).toBe(400);
    expect(add.json().message).toMatch(/staff account/);
    // An account with a bank account that becomes staff leaves the bank list.
    const [member] = await t.database.query<{ user_id: number }>(
      'select user_id from users where not can_sign_in and deleted_at is null order by user_id desc limit 1');
    const created = await call('POST', '/api/banks/createBankAccount', {
      userId: member.user_id, accountHolderName: 'Holder', accountNumber: '998877665544', ifsc: 'HDFC0000123', bank: 'HDFC Bank',
    });
    expect(created.statusCode).toBe(201);
    const inList = async () => ((await call('GET', '/api/banks/getAllBanks?limit=100')).json().data as { userId: number }[])
      .some((b) => b.userId === member.user_id);
    expect(await inList()).toBe(true);
    await t.database.query('update users set can_sign_in = true where user_id = $1', [member.user_id]);
    expect(await inList()).toBe(false);
    await t.database.query('update users set can_sign_in = false where user_id = $1', [member.user_id]);
  });

  it('a staff account is no referrer for a new member', async () => {
    const [admin] = await staffIds();
    const res = await call('POST', '/api/users/register', {
      fullName: 'Referred By Staff', dob: '1990-01-01', email: 'by.staff@test.local', phone: '9555500002', referralCode: String(admin),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Invalid referral code');
  });
});
