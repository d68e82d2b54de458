import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moneyInvariantViolations } from '../lib/money-invariants.ts';
import { ADMIN_EMAIL, createTestApp, type TestContext } from '../test/harness.ts';
import { ensureAdmin } from './bootstrap.ts';
import { levelSizes, seedDemoData } from './demo-data.ts';

describe('levelSizes', () => {
  it('places every member on at most 10 levels, with roots of 100,000 at a million', () => {
    for (const n of [1, 2, 5, 13, 60, 300, 10_000, 1_000_000]) {
      const sizes = levelSizes(n);
      expect(sizes.reduce((a, b) => a + b, 0), String(n)).toBe(n);
      expect(sizes.length).toBeLessThanOrEqual(10);
      expect(Math.min(...sizes)).toBeGreaterThan(0);
    }
    expect(levelSizes(1_000_000)[0]).toBe(10);
    expect(levelSizes(300)).toHaveLength(10);
  });
});

describe('finding 10: seeding a database that has demo data already', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('`npm run seed` twice, then a first start that seeds again, add every member without a duplicate phone', { timeout: 120_000 }, async () => {
    const live = async () => Number((await t.database.query<{ n: string }>(
      'select count(*)::text as n from users where deleted_at is null'))[0].n);
    const before = await live();
    // npm run seed, twice
    await seedDemoData(t.database, { members: 40, days: 30 });
    await seedDemoData(t.database, { members: 40, days: 30 });
    // …then the server's first start: its administrator, and its own demo members.
    await ensureAdmin(t.database, ADMIN_EMAIL, undefined, () => 'first-start-password');
    await seedDemoData(t.database, { members: 25 });
    expect(await live()).toBe(before + 105);
    expect(await t.database.query(
      'select phone from users where deleted_at is null group by phone having count(*) > 1')).toEqual([]);
    expect(await moneyInvariantViolations(t.database)).toEqual([]);
  });
});
