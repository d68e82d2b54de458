import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moneyInvariantViolations } from '../lib/money-invariants.ts';
import { ADMIN_EMAIL, createTestApp, testDbKind, type TestContext } from '../test/harness.ts';
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

describe('issue 16: the demo\u2019s income comes from the engine', () => {
  let a: TestContext;
  let b: TestContext;
  beforeAll(async () => {
    a = await createTestApp();
    b = await createTestApp();
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  /** What a size's demo data adds up to: the ledger by kind, payouts by status and reason, runs by kind. */
  const totals = async (t: TestContext) => ({
    ledger: await t.database.query(`
      select kind, count(*)::int8::text as n, sum(amount_paise)::int8::text as paise from ledger_entries group by kind order by kind`),
    payouts: await t.database.query(`
      select status, coalesce(reason, '') as reason, count(*)::int8::text as n, sum(amount_paise)::int8::text as paise
        from daily_payouts group by 1, 2 order by 1, 2`),
    runs: await t.database.query(`
      select kind, status, count(*)::int8::text as n, sum(gross_paise)::int8::text as gross from income_runs group by 1, 2 order by 1, 2`),
    memberships: await t.database.query(`
      select status, count(*)::int8::text as n, sum(earned_paise)::int8::text as earned from memberships group by 1 order by 1`),
  });

  it('payouts, royalty and rewards belong to completed runs, every screen has data, and a size gives the same data twice', { timeout: 240_000 }, async () => {
    await seedDemoData(a.database, { members: 300 });
    const q = <T,>(text: string) => a.database.query<T>(text);

    // Nothing the engine pays is inserted around it: every payout row, batch and income credit has its run.
    expect(await q(`select count(*)::int as n from daily_payouts where run_id is null`)).toEqual([{ n: 0 }]);
    expect(await q(`select count(*)::int as n from income_batches where run_id is null`)).toEqual([{ n: 0 }]);
    expect(await q(`
      select count(*)::int as n from ledger_entries
       where kind in ('daily_payout', 'tds', 'admin_charge', 'royalty', 'reward') and run_id is null`)).toEqual([{ n: 0 }]);
    expect(await q(`select status, count(*)::int as n from income_runs where status <> 'completed' group by 1`)).toEqual([]);

    // Each kind ran; the screens' sources are not empty.
    const kinds = (await q<{ kind: string }>(`select distinct kind from income_runs order by kind`)).map((r) => r.kind);
    expect(kinds).toEqual(['daily_payout', 'monthly_reward', 'rank_promotion', 'referral_bonus', 'royalty']);
    const batches = (await q<{ key: string }>(`
      select distinct b.kind || ':' || coalesce(b.reward_type, '') as key
        from income_batches b where exists (select 1 from ledger_entries l where l.batch_id = b.batch_id) order by 1`)).map((r) => r.key);
    expect(batches).toEqual(['reward:dailyPayout', 'reward:monthlyReward', 'reward:referral_bonus_10_users', 'royalty:']);
    const reasons = (await q<{ reason: string }>(`
      select distinct coalesce(reason, status) as reason from daily_payouts order by 1`)).map((r) => r.reason);
    expect(reasons).toEqual(['Member is inactive', 'Success']);
    const ledgerKinds = (await q<{ kind: string }>(`select distinct kind from ledger_entries order by 1`)).map((r) => r.kind);
    expect(ledgerKinds).toEqual(expect.arrayContaining(['membership_fee', 'external_payment', 'level_income', 'tds', 'admin_charge']));
    expect(await q(`select count(*)::int as n from rank_promotions`)).not.toEqual([{ n: 0 }]);

    // Memberships carry the terms they were sold with, started before today, and stay within their cap.
    expect(await q(`
      select count(*)::int as n from memberships
       where plan_version_id is null or daily_paise <= 0 or cap_paise <= 0 or earned_paise > cap_paise
          or starts_on > (now() at time zone 'Asia/Kolkata')::date`)).toEqual([{ n: 0 }]);
    // The level income of every activation is what the settings give (no compression): a
    // credit per active upline and level, floor(price × bp / 10,000).
    const [level] = await q<{ lines: number; matched: number; wrong: number }>(`
      with lines as (
        select l.amount_paise, substring(l.description from 'Level (\\d+) ')::int as level,
               substring(l.description from 'of member (\\d+)$')::int8 as member
          from ledger_entries l where l.kind = 'level_income'
      )
      select count(*)::int as lines, count(m.user_id)::int as matched,
             count(*) filter (where l.amount_paise <> m.amount_paise * (array[1000,500,300,200,100,100,50,50,50,50])[l.level] / 10000)::int as wrong
        from lines l left join memberships m on m.user_id = l.member`);
    expect(level.lines).toBeGreaterThan(20);
    expect(level).toEqual({ lines: level.lines, matched: level.lines, wrong: 0 });
    expect(await moneyInvariantViolations(a.database)).toEqual([]);

    // The same size twice: the same money, the same runs.
    await seedDemoData(b.database, { members: 300 });
    expect(await totals(b)).toEqual(await totals(a));
  });
});

describe('the seed leaves the planner statistics up to date', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  // PostgreSQL records when each table was last analyzed (PGlite keeps no statistics views). The
  // engine's catch-up writes the income's lines last: the tables it fills must be analyzed after
  // its last run finished (the runs keep their real times, unlike the back-dated lines).
  it.skipIf(testDbKind !== 'postgres')('the tables the engine fills are analyzed after its last run', { timeout: 60_000 }, async () => {
    await seedDemoData(t.database, { members: 60, days: 10 });
    const stale = await t.database.query<{ relname: string }>(`
      select s.relname::text from pg_stat_user_tables s
       where s.relname in ('ledger_entries', 'daily_payouts', 'memberships')
         and (s.last_analyze is null or s.last_analyze < (select max(finished_at) from income_runs))`);
    expect(stale).toEqual([]);
  });
});
