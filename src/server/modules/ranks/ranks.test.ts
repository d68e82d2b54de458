import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountWithPermissions } from '../../test/accounts.ts';
import { bearer, caller, createTestApp, plainAccount, type TestContext } from '../../test/harness.ts';

let t: TestContext;
let admin: Record<string, string>;
let noPermission: Record<string, string>;
let call: ReturnType<typeof caller>;

beforeAll(async () => {
  t = await createTestApp({ members: 20 });
  admin = bearer(await t.login());
  noPermission = await plainAccount(t);
  call = caller(t, admin);
});
afterAll(() => t.close());

describe('ranks', () => {
  it('GET /ranks/getAllRank lists the bootstrap ranks by name with their ids and status', async () => {
    const res = await call('GET', '/api/ranks/getAllRank');
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.map((r: { name: string }) => r.name)).toEqual(['Bronze', 'Diamond', 'Gold', 'Platinum', 'Silver']);
    expect(data.find((r: { name: string }) => r.name === 'Bronze')).toMatchObject({ _id: '100001', rankId: 100001, status: true });
    expect(data.find((r: { name: string }) => r.name === 'Diamond')).toMatchObject({ rankId: 100005, status: false });
  });

  it('creates, fetches, updates and deletes a rank, auditing each change', async () => {
    const created = await call('POST', '/api/ranks/createRank', { name: '  Titanium ', status: true });
    expect(created.statusCode).toBe(201);
    const rank = created.json().data;
    expect(created.json()).toMatchObject({ success: true, message: 'Rank created successfully', data: { name: 'Titanium', status: true } });
    expect((await call('GET', `/api/ranks/getRankById/${rank.rankId}`)).json().data).toEqual(rank);
    const updated = await call('PUT', `/api/ranks/updateRank/${rank.rankId}`, { name: 'Titanium Plus', status: false });
    expect(updated.json()).toMatchObject({ message: 'Rank updated successfully', data: { rankId: rank.rankId, name: 'Titanium Plus', status: false } });
    const deleted = await call('DELETE', `/api/ranks/deleteRank/${rank.rankId}`);
    expect(deleted.json()).toEqual({ success: true, message: 'Rank deleted successfully' });
    expect((await call('GET', `/api/ranks/getRankById/${rank.rankId}`)).statusCode).toBe(404);
    const log = await t.database.query<{ action: string }>(`select action from audit_log where entity = 'rank' and entity_id = $1 order by id`, [String(rank.rankId)]);
    expect(log.map((l) => l.action)).toEqual(['create', 'update', 'delete']);
  });

  it('defaults status to active and requires a name', async () => {
    const res = await call('POST', '/api/ranks/createRank', { name: 'Copper' });
    expect(res.json().data.status).toBe(true);
    const blank = await call('POST', '/api/ranks/createRank', { name: '   ', status: true });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toMatch(/Rank name is required/);
    expect((await call('POST', '/api/ranks/createRank', { name: 'X', status: 'yes' })).statusCode).toBe(400);
    expect((await call('POST', '/api/ranks/createRank', { name: 'x'.repeat(51) })).statusCode).toBe(400);
  });

  it('refuses a duplicate name in any letter case with 409', async () => {
    const dup = await call('POST', '/api/ranks/createRank', { name: 'gold', status: true });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('A rank named "gold" already exists');
    expect((await call('PUT', '/api/ranks/updateRank/100002', { name: 'GOLD', status: true })).statusCode).toBe(409);
    expect((await call('PUT', '/api/ranks/updateRank/100002', { name: 'Silver', status: true })).statusCode).toBe(200);
  });

  it('refuses deleting a rank held by members with 409 and a clear message', async () => {
    await t.database.query('update users set rank_id = 100004 where user_id = (select min(user_id) from users where password_hash is null)');
    const res = await call('DELETE', '/api/ranks/deleteRank/100004');
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/^The rank "Platinum" is held by \d+ member\(s\) and cannot be deleted/);
  });

  it('404 for unknown ids, 400 for malformed ones', async () => {
    expect((await call('GET', '/api/ranks/getRankById/999')).json()).toEqual({ success: false, message: 'Rank not found' });
    expect((await call('PUT', '/api/ranks/updateRank/999', { name: 'Nope', status: true })).statusCode).toBe(404);
    expect((await call('DELETE', '/api/ranks/deleteRank/999')).statusCode).toBe(404);
    expect((await call('GET', '/api/ranks/getRankById/abc')).statusCode).toBe(400);
  });

  it('ships a ladder: the bootstrap ranks carry positions, royalty weights, criteria and monthly rewards', async () => {
    const { data } = (await call('GET', '/api/ranks/getAllRank')).json();
    const byName = Object.fromEntries(data.map((r: { name: string }) => [r.name, r]));
    expect(byName.Bronze).toMatchObject({ position: 1, royaltyWeight: 1, minDirect: 2, minTeam: 5, minBusiness: 5000, monthlyReward: 100 });
    const ladder = ['Bronze', 'Silver', 'Gold', 'Platinum', 'Diamond'].map((n) => byName[n]);
    for (let i = 1; i < ladder.length; i++) {
      for (const key of ['position', 'royaltyWeight', 'minDirect', 'minTeam', 'minBusiness', 'monthlyReward']) {
        expect(ladder[i][key], `${ladder[i].name}.${key}`).toBeGreaterThan(ladder[i - 1][key]);
      }
    }
  });

  it('sets the criteria in rupees (stored in paise); a field left out of an update keeps its value', async () => {
    const criteria = { position: 7, royaltyWeight: 3, minDirect: 4, minTeam: 12, minBusiness: 1234.56, monthlyReward: 99.99 };
    const created = await call('POST', '/api/ranks/createRank', { name: 'Ruby', ...criteria });
    expect(created.statusCode).toBe(201);
    const { rankId } = created.json().data;
    expect(created.json().data).toMatchObject(criteria);
    const [row] = await t.database.query<{ min_business_paise: string; monthly_reward_paise: string }>(
      'select min_business_paise::text, monthly_reward_paise::text from ranks where rank_id = $1', [rankId]);
    expect(row).toEqual({ min_business_paise: '123456', monthly_reward_paise: '9999' });
    const updated = await call('PUT', `/api/ranks/updateRank/${rankId}`, { name: 'Ruby', status: true, minTeam: 20 });
    expect(updated.json().data).toMatchObject({ ...criteria, minTeam: 20 });
    const plain = (await call('POST', '/api/ranks/createRank', { name: 'Opal' })).json().data;
    expect(plain).toMatchObject({ position: 0, royaltyWeight: 0, minDirect: 0, minTeam: 0, minBusiness: 0, monthlyReward: 0 });
    for (const bad of [{ position: -1 }, { royaltyWeight: 1.5 }, { minBusiness: 1.001 }, { monthlyReward: -5 }, { minTeam: '3' }]) {
      const res = await call('PUT', `/api/ranks/updateRank/${rankId}`, { name: 'Ruby', ...bad });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
  });

  it('needs income_settings to change a rank\u2019s criteria; the name and status need only ranks_manage', async () => {
    const manager = bearer(await accountWithPermissions(t.database, ['ranks_view', 'ranks_manage']));
    const rank = (await call('POST', '/api/ranks/createRank', { name: 'Jade', position: 9 })).json().data;
    // The stored values sent again (an edit form that shows them) are not a change.
    const same = await call('PUT', `/api/ranks/updateRank/${rank.rankId}`, { name: 'Jade Two', status: true, position: 9, minTeam: 0 }, manager);
    expect(same.statusCode).toBe(200);
    const changed = await call('PUT', `/api/ranks/updateRank/${rank.rankId}`, { name: 'Jade Two', status: true, position: 10 }, manager);
    expect(changed.statusCode).toBe(403);
    expect(changed.json().message).toBe('Setting the position, royalty weight, criteria or monthly reward of a rank needs the income_settings permission');
    expect((await call('POST', '/api/ranks/createRank', { name: 'Onyx', royaltyWeight: 2 }, manager)).statusCode).toBe(403);
    expect((await call('POST', '/api/ranks/createRank', { name: 'Onyx' }, manager)).statusCode).toBe(201);
  });

  it('needs ranks_view to read and ranks_manage to change', async () => {
    expect((await call('GET', '/api/ranks/getAllRank', undefined, noPermission)).statusCode).toBe(403);
    expect((await call('GET', '/api/ranks/getRankById/100001', undefined, noPermission)).statusCode).toBe(403);
    expect((await call('POST', '/api/ranks/createRank', { name: 'Zinc' }, noPermission)).statusCode).toBe(403);
    expect((await call('PUT', '/api/ranks/updateRank/100001', { name: 'Zinc' }, noPermission)).statusCode).toBe(403);
    expect((await call('DELETE', '/api/ranks/deleteRank/100001', undefined, noPermission)).statusCode).toBe(403);
  });
});
