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

describe('issue 15 item 10: demo data is dated in the past', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('no generated time or date lies after the moment of seeding', { timeout: 60_000 }, async () => {
    await seedDemoData(t.database, { members: 60, days: 10 });
    // Every timestamp and date column of every table the seed (or a trigger behind it) fills,
    // except the ones that mean a moment to come (an expiry).
    const columns = await t.database.query<{ table_name: string; column_name: string; data_type: string }>(`
      select table_name::text, column_name::text, data_type::text from information_schema.columns
       where table_schema = current_schema() and data_type in ('timestamp with time zone', 'date')
         and column_name not like 'expires%'`);
    expect(columns.length).toBeGreaterThan(10);
    const future: string[] = [];
    for (const c of columns) {
      const limit = c.data_type === 'date' ? `(now() at time zone 'Asia/Kolkata')::date` : 'now()';
      const [{ late }] = await t.database.query<{ late: string }>(
        `select count(*)::text as late from "${c.table_name}" where "${c.column_name}" > ${limit}`);
      if (late !== '0') future.push(`${c.table_name}.${c.column_name}: ${late} rows`);
    }
    expect(future).toEqual([]);
    // …and spread over the past, not piled up at the moment of seeding.
    const [spread] = await t.database.query<{ days: string }>(`
      select count(distinct (created_at at time zone 'Asia/Kolkata')::date)::text as days from ledger_entries`);
    expect(Number(spread.days)).toBeGreaterThanOrEqual(8);
  });
});
