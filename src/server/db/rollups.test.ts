import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../test/harness.ts';

// The trigger-kept rollups (drizzle/functions/) must equal counting the tables, whatever writes do.
let t: TestContext;
beforeAll(async () => {
  // 300: the seeded database network.test.ts uses, made once per run (seeded-templates.ts).
  t = await createTestApp({ members: 300 });
});
afterAll(() => t.close());

async function segmentsMatch() {
  const [row] = await t.database.query<{ same: boolean }>(`
    select coalesce((select json_agg(x order by level, rank_key) from
             (select level, rank_key, live from user_segments where live <> 0) x)::text, '[]')
         = coalesce((select json_agg(y order by level, rank_key) from
             (select level, coalesce(rank_id, 0) as rank_key, count(*)::int8 as live from users
               where deleted_at is null and not can_sign_in group by 1, 2) y)::text, '[]') as same`);
  return row.same;
}

async function downlineMatch() {
  const [row] = await t.database.query<{ counts: boolean; firsts: boolean }>(`
    with recursive up(member, live, ancestor, depth) as (
      select user_id, deleted_at is null and not can_sign_in, referred_by, 1 from users where referred_by is not null
      union all
      select up.member, up.live, a.referred_by, up.depth + 1 from up join users a on a.user_id = up.ancestor
       where a.referred_by is not null and up.depth < 10
    )
    select coalesce((select json_agg(x order by ancestor_id, depth) from
             (select ancestor_id, depth, members from downline_counts where members <> 0) x)::text, '[]')
         = coalesce((select json_agg(y order by ancestor_id, depth) from
             (select ancestor as ancestor_id, depth::int2 as depth, count(*)::int8 as members from up where live group by 1, 2) y)::text, '[]')
      as counts,
           coalesce((select json_agg(x order by ancestor_id, depth) from
             (select ancestor_id, depth, first_members from downline_counts where members <> 0) x)::text, '[]')
         = coalesce((select json_agg(y order by ancestor_id, depth) from
             (select ancestor as ancestor_id, depth::int2 as depth, (array_agg(member order by member))[1:100] as first_members
                from up group by 1, 2 having count(*) filter (where live) > 0) y)::text, '[]')
      as firsts`);
  return row;
}

async function payoutsMatch() {
  const [row] = await t.database.query<{ same: boolean }>(`
    select coalesce((select json_agg(x order by day, status) from
             (select day, status, payouts, total_paise from payouts_daily where payouts <> 0) x)::text, '[]')
         = coalesce((select json_agg(y order by day, status) from
             (select payout_date as day, status, count(*)::int8 as payouts, sum(amount_paise)::int8 as total_paise
                from daily_payouts group by 1, 2) y)::text, '[]') as same`);
  return row.same;
}

async function incomeMonthsMatch() {
  const [row] = await t.database.query<{ users: boolean; totals: boolean; rows: number }>(`
    with raw as (
      select b.kind, coalesce(b.reward_type, '') || case when l.reversal_of is null then '' else ':reversed' end as reward_key,
             date_trunc('month', b.run_date)::date as month,
             l.user_id, sum(l.amount_paise)::int8 as total_paise, count(*) filter (where l.amount_paise > 0)::int8 as entries
        from ledger_entries l
        left join income_runs r on l.batch_id is null and l.kind in ('tds', 'admin_charge') and r.run_id = l.run_id
        join income_batches b on b.batch_id = coalesce(l.batch_id, r.batch_id) group by 1, 2, 3, 4
    )
    select coalesce((select json_agg(x order by kind, reward_key, month, user_id) from
             (select kind, reward_key, month, user_id, total_paise, entries from income_month_users) x)::text, '[]')
         = coalesce((select json_agg(y order by kind, reward_key, month, user_id) from raw y)::text, '[]') as users,
           coalesce((select json_agg(x order by kind, reward_key, month) from
             (select kind, reward_key, month, total_paise, entries, users from income_month_totals) x)::text, '[]')
         = coalesce((select json_agg(y order by kind, reward_key, month) from
             (select kind, reward_key, month, sum(total_paise)::int8 as total_paise, sum(entries)::int8 as entries,
                     count(*)::int8 as users from raw group by 1, 2, 3) y)::text, '[]') as totals,
           (select count(*)::int from income_month_users) as rows`);
  return row;
}

describe('rollups kept by triggers', () => {
  it('user_segments follows inserts, rank and level changes, soft deletes and hard deletes', async () => {
    expect(await segmentsMatch()).toBe(true);
    await t.database.query(`update users set rank_id = 100002 where user_id in (select user_id from users order by user_id limit 30)`);
    await t.database.query(`update users set rank_id = null where user_id in (select user_id from users order by user_id desc limit 20)`);
    await t.database.query(`update users set level = level + 1 where user_id % 7 = 0`);
    await t.database.query(`update users set deleted_at = now() where user_id % 11 = 0`);
    await t.database.query(`update users set deleted_at = null where user_id % 22 = 0`);
    await t.database.query(`update users set balance_paise = balance_paise where user_id % 3 = 0`);
    await t.database.query(
      `insert into users (full_name, email, phone, referral_code, level, rank_id) values
         ('Segment One', 'seg1@test.local', '9000000101', 'SEG1', 4, 100003),
         ('Segment Two', 'seg2@test.local', '9000000102', 'SEG2', 4, null)`,
    );
    await t.database.query(`delete from users where email like 'seg%@test.local'`);
    expect(await segmentsMatch()).toBe(true);
  });

  it('downline_counts follows new members, soft deletes, restores and hard deletes', async () => {
    expect(await downlineMatch()).toEqual({ counts: true, firsts: true });
    const [parent] = await t.database.query<{ user_id: number }>(`select user_id from users where level = 3 order by user_id limit 1`);
    await t.database.query(
      `insert into users (full_name, email, phone, referral_code, level, referred_by) values
         ('Down One', 'down1@test.local', '9000000201', 'DOWN1', 4, $1),
         ('Down Two', 'down2@test.local', '9000000202', 'DOWN2', 4, $1)`,
      [parent.user_id],
    );
    await t.database.query(`update users set deleted_at = now() where user_id % 13 = 0`);
    await t.database.query(`update users set deleted_at = null where user_id % 26 = 0`);
    await t.database.query(`delete from users where email = 'down2@test.local'`);
    expect(await downlineMatch()).toEqual({ counts: true, firsts: true });
  });

  it('payouts_daily follows new payouts and status changes', async () => {
    expect(await payoutsMatch()).toBe(true);
    await t.database.query(`update daily_payouts set status = 'Success' where id in (select id from daily_payouts where status = 'Failure' limit 10)`);
    await t.database.query(`update daily_payouts set amount_paise = amount_paise + 100 where id % 5 = 0`);
    expect(await payoutsMatch()).toBe(true);
  });

  it('income_month_users and income_month_totals follow new royalty and reward credits, and ignore wallet traffic', async () => {
    const before = await incomeMonthsMatch();
    expect(before).toMatchObject({ users: true, totals: true });
    expect(before.rows).toBeGreaterThan(0);
    const [batch] = await t.database.query<{ batch_id: number }>(
      `insert into income_batches (kind, reward_type, run_date) values ('reward', 'monthlyReward', current_date - 40) returning batch_id`,
    );
    const receivers = await t.database.query<{ user_id: number }>(`select user_id from users order by user_id limit 12`);
    // One statement with two credits for one receiver, then a second statement for receivers old and new.
    await t.database.query(
      `insert into ledger_entries (user_id, kind, amount_paise, batch_id, transfer_id)
       select *, nextval(pg_get_serial_sequence('transfers', 'id')) from (select user_id, 'reward', 1000 + user_id % 7, $1::int from users where user_id = any($2::int8[])
       union all select $3::int8, 'reward', 555, $1::int) h`,
      [batch.batch_id, receivers.slice(0, 6).map((r) => r.user_id), receivers[0].user_id],
    );
    await t.database.query(
      `insert into ledger_entries (user_id, kind, amount_paise, batch_id, transfer_id)
       select user_id, 'reward', 2000, $1, nextval(pg_get_serial_sequence('transfers', 'id')) from users where user_id = any($2::int8[])`,
      [batch.batch_id, receivers.slice(3).map((r) => r.user_id)],
    );
    await t.database.query(`insert into ledger_entries (user_id, kind, amount_paise, transfer_id) values ($1, 'wallet_recharge', 700, nextval(pg_get_serial_sequence('transfers', 'id')))`, [receivers[0].user_id]);
    expect(await incomeMonthsMatch()).toMatchObject({ users: true, totals: true });
    const [month] = await t.database.query<{ users: number }>(
      `select users::int from income_month_totals where kind = 'reward' and reward_key = 'monthlyReward'
          and month = date_trunc('month', current_date - 40)::date`,
    );
    expect(month.users).toBeGreaterThanOrEqual(12);
    await expect(t.database.query(`update income_batches set run_date = run_date - 1 where batch_id = $1`, [batch.batch_id]))
      .rejects.toThrow(/fixed/);
  });
});
