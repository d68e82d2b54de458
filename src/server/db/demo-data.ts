import { sql } from 'drizzle-orm';
import { rowsOf, type Database, type Db } from './client.ts';

/**
 * The deterministic demo-data generator: members in a referral tree up to 10 levels, bank
 * accounts, memberships and a wallet ledger over the last `days` days (recharges, withdrawals,
 * membership fees, royalty and reward batches, daily payouts with Success and Failure).
 * Everything is set-based SQL, so a million members is a matter of minutes, not hours.
 * "Random" choices come from hashes of the row number, so the same size gives the same data.
 */
export interface SeedOptions {
  members: number;
  days?: number;
  onProgress?: (message: string) => void;
}

const FIRST = ['Aarav', 'Vivaan', 'Aditya', 'Vihaan', 'Arjun', 'Sai', 'Reyansh', 'Ayaan', 'Krishna', 'Ishaan',
  'Rohan', 'Karan', 'Rahul', 'Amit', 'Suresh', 'Ramesh', 'Vikram', 'Anil', 'Sanjay', 'Manoj',
  'Aadhya', 'Ananya', 'Diya', 'Saanvi', 'Pari', 'Anika', 'Navya', 'Myra', 'Sara', 'Ira',
  'Priya', 'Neha', 'Pooja', 'Kavya', 'Sneha', 'Lakshmi', 'Meera', 'Divya', 'Anjali', 'Riya'];
const LAST = ['Sharma', 'Verma', 'Gupta', 'Singh', 'Kumar', 'Patel', 'Reddy', 'Nair', 'Iyer', 'Rao',
  'Joshi', 'Mehta', 'Shah', 'Das', 'Bose', 'Chatterjee', 'Mishra', 'Pandey', 'Yadav', 'Jain',
  'Agarwal', 'Kulkarni', 'Desai', 'Pillai', 'Menon', 'Ghosh', 'Saxena', 'Chauhan', 'Malhotra', 'Kapoor'];
const STATES = ['Maharashtra', 'Karnataka', 'Tamil Nadu', 'Uttar Pradesh', 'Gujarat', 'Rajasthan', 'West Bengal',
  'Kerala', 'Telangana', 'Andhra Pradesh', 'Madhya Pradesh', 'Bihar', 'Punjab', 'Haryana', 'Delhi', 'Odisha'];
const BANKS = [['SBIN', 'State Bank of India'], ['HDFC', 'HDFC Bank'], ['ICIC', 'ICICI Bank'], ['UTIB', 'Axis Bank'],
  ['PUNB', 'Punjab National Bank'], ['KKBK', 'Kotak Mahindra Bank'], ['BARB', 'Bank of Baroda'], ['CNRB', 'Canara Bank']];
const CITIES = ['Mumbai', 'Pune', 'Bengaluru', 'Chennai', 'Lucknow', 'Ahmedabad', 'Jaipur', 'Kolkata', 'Kochi',
  'Hyderabad', 'Indore', 'Patna', 'Ludhiana', 'Gurugram', 'New Delhi', 'Bhubaneswar'];

const arr = (items: string[]) => `array[${items.map((s) => `'${s.replace(/'/g, "''")}'`).join(',')}]`;
/** A deterministic number in [0, 1) from a row number and a salt. */
const rnd = (expr: string, salt: number) => `((abs(hashint8extended((${expr})::int8, ${salt})) % 1000003)::float8 / 1000003)`;
const pick = (items: string[], expr: string, salt: number) =>
  `(${arr(items)})[1 + (abs(hashint8extended((${expr})::int8, ${salt})) % ${items.length})]`;
const IST = `'Asia/Kolkata'`;
/**
 * `base` plus `interval`, but never after the moment of seeding: a member who joined an hour ago
 * gets the row within that hour (at `fraction` of the time since `base`), not in the future
 * (issue 15: an operator's new transaction must show first, above every demo row).
 */
const after = (base: string, interval: string, fraction: number) =>
  `(${base} + least(interval '${interval}', (now() - ${base}) * ${fraction}))`;

/**
 * From this many members on, the load drops the secondary indexes of the tables it fills and
 * builds them again at the end, in the same transaction: building an index over millions of rows
 * at once is several times faster than keeping it up to date row by row. The tables are locked
 * for the duration, which only matters when seeding a database that is in use.
 */
const BULK_MEMBERS = 50_000;
const BULK_TABLES = ['users', 'bank_accounts', 'memberships', 'ledger_entries', 'daily_payouts'];

/**
 * How many members sit on each of the 10 levels: a few roots (one per 100,000 members, at least 3,
 * so a million members gives roots with 100,000 below them), then each level a constant factor
 * larger than the one above.
 */
export function levelSizes(members: number, maxLevels = 10): number[] {
  const roots = Math.min(members, Math.max(3, Math.round(members / 100_000)));
  const levels = Math.min(maxLevels, members - roots + 1);
  const total = (r: number) => (r === 1 ? roots * levels : (roots * (r ** levels - 1)) / (r - 1));
  let lo = 1;
  let hi = 100;
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (total(mid) < members) lo = mid;
    else hi = mid;
  }
  const sizes = Array.from({ length: levels }, (_, k) => Math.max(1, Math.floor(roots * lo ** k)));
  sizes[0] = roots;
  let rest = members - sizes.reduce((a, b) => a + b, 0);
  for (let k = levels - 1; rest !== 0 && k > 0; k--) {
    const change = Math.max(rest, 1 - sizes[k]);
    sizes[k] += change;
    rest -= change;
  }
  return sizes.filter((n) => n > 0);
}

/** Runs one or more statements (separated by `;` at a line end), each as its own query. */
async function run(tx: Db, text: string): Promise<void> {
  for (const statement of text.split(/;\s*\n/)) {
    if (statement.trim()) await tx.execute(sql.raw(statement));
  }
}

export async function seedDemoData(database: Database, options: SeedOptions): Promise<void> {
  const days = options.days ?? 90;
  const progress = options.onProgress ?? (() => {});
  const n = Math.max(0, Math.floor(options.members));
  if (n === 0) return;
  const started = Date.now();
  const step = (what: string) => progress(`${what} (${((Date.now() - started) / 1000).toFixed(1)} s)`);

  await database.db.transaction(async (tx) => {
    const [{ base }] = rowsOf<{ base: number | string }>(
      await tx.execute(sql`select coalesce(max(user_id), 100000) as base from users`),
    );
    const b = Number(base);
    const bulk = n >= BULK_MEMBERS;
    // A million members take minutes: the requests' statement timeout (STATEMENT_TIMEOUT_MS) is not for this.
    await run(tx, `set local statement_timeout = 0`);
    // Kept search counts would be followed row by row through the load: recounted when next asked instead.
    await run(tx, `delete from search_counts`);
    if (bulk) {
      await run(tx, `set local maintenance_work_mem = '512MB'`);
      await run(tx, `
        create temp table seed_indexes on commit drop as
        select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
          from pg_index i
         where i.indrelid in (${BULK_TABLES.map((t) => `'${t}'::regclass`).join(', ')})
           and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`);
      // Foreign keys too: a check per inserted row is ten million lookups; adding the constraint
      // back validates all rows in one join.
      await run(tx, `
        create temp table seed_fks on commit drop as
        select conrelid::regclass::text as tbl, conname::text as name, pg_get_constraintdef(oid) as def
          from pg_constraint
         where contype = 'f' and conrelid in (${BULK_TABLES.map((t) => `'${t}'::regclass`).join(', ')})`);
      // (`run` splits statements at a semicolon that ends a line: each block stays on one line.)
      await run(tx, `do $$ declare r record; begin
        for r in select name from seed_indexes loop execute 'drop index ' || r.name; end loop; end $$`);
      await run(tx, `do $$ declare r record; begin
        for r in select tbl, name from seed_fks loop execute format('alter table %s drop constraint %I', r.tbl, r.name); end loop; end $$`);
      step('bulk load: secondary indexes and foreign keys dropped, restored at the end');
    }
    const sizes = levelSizes(n);
    let start = 1;
    for (let k = 1; k <= sizes.length; k++) {
      const end = start + sizes[k - 1] - 1;
      const prevSize = sizes[k - 2] ?? 0;
      const prevStart = start - prevSize;
      const referrer = k === 1 ? 'null' : `${b} + ${prevStart} + (abs(hashint8extended(i, 7)) % ${prevSize})`;
      // Each level joins in its own tenth of the period, the deepest up to today.
      const created = `now() - make_interval(secs => 86400 * ${days} * (1 - ${0.1 * (k - 1)} - 0.1 * ${rnd('i', 8)}))`;
      await run(tx, `
        insert into users (user_id, username, full_name, email, phone, address, dob, state, referral_code,
                           referred_by, level, rank_id, status, created_at, updated_at)
        select ${b} + i, null,
               ${pick(FIRST, 'i', 1)} || ' ' || ${pick(LAST, 'i', 2)},
               lower(${pick(FIRST, 'i', 1)} || '.' || ${pick(LAST, 'i', 2)}) || '.' || (${b} + i) || '@example.in',
               -- From the user id, not the row number: a second seed, or a first start on a seeded
               -- database, continues after the highest id and so never repeats a live phone
               -- (7919 is prime to 3,000,000,000, so ids below that map to distinct numbers).
               (6000000000 + (((${b} + i) * 7919) % 3000000000))::text,
               ${pick(CITIES, 'i', 3)} || ', India',
               date '1970-01-01' + (abs(hashint8extended(i, 4)) % 12000)::int,
               ${pick(STATES, 'i', 5)},
               'BO' || (${b} + i),
               ${referrer}, ${k},
               case when ${rnd('i', 6)} < 0.6 then 100001 + (abs(hashint8extended(i, 9)) % 5)::int end,
               ${rnd('i', 10)} >= 0.1,
               ${created}, ${created}
          from generate_series(${start}::int8, ${end}::int8) as i`);
      step(`members: level ${k} of ${sizes.length} (${end.toLocaleString('en-IN')} of ${n.toLocaleString('en-IN')})`);
      start = end + 1;
    }
    await run(tx, `select setval(pg_get_serial_sequence('users', 'user_id'), (select max(user_id) from users))`);
    const members = `from users u where u.user_id > ${b} and u.user_id <= ${b + n}`;

    await run(tx, `
      insert into bank_accounts (user_id, account_holder_name, account_number, ifsc, bank, branch, is_primary, created_at)
      select u.user_id, u.full_name, (10000000000 + (u.user_id * 104729) % 89999999999)::text,
             ${pick(BANKS.map((x) => x[0]), 'u.user_id', 11)} || '0' || lpad(((u.user_id * 31) % 999999)::text, 6, '0'),
             ${pick(BANKS.map((x) => x[1]), 'u.user_id', 11)}, ${pick(CITIES, 'u.user_id', 12)} || ' Main',
             true, ${after('u.created_at', '1 day', 0.4)}
        ${members} and ${rnd('u.user_id', 13)} < 0.75`);
    await run(tx, `
      insert into bank_accounts (user_id, account_holder_name, account_number, ifsc, bank, branch, is_primary, created_at)
      select u.user_id, u.full_name, (200000000000 + (u.user_id * 7919) % 799999999999)::text,
             'HDFC0' || lpad(((u.user_id * 17) % 999999)::text, 6, '0'), 'HDFC Bank', ${pick(CITIES, 'u.user_id', 14)},
             false, ${after('u.created_at', '2 days', 0.8)}
        ${members} and ${rnd('u.user_id', 13)} < 0.2`);
    step('bank accounts');

    // Wallet: a first recharge for everyone, then fees, withdrawals and later recharges that
    // never take a balance below zero.
    await run(tx, `
      insert into ledger_entries (user_id, kind, amount_paise, description, created_at)
      select u.user_id, 'wallet_recharge', (1500 + floor(${rnd('u.user_id', 20)} * 4500))::int8 * 100,
             'Wallet recharge', ${after('u.created_at', '1 hour', 0.3)}
        ${members}
      union all
      select u.user_id, 'wallet_recharge', (200 + floor(${rnd('u.user_id', 21)} * 1800))::int8 * 100, 'Wallet recharge',
             u.created_at + interval '2 hours' + (now() - u.created_at - interval '2 hours') * ${rnd('u.user_id', 22)}
        ${members} and ${rnd('u.user_id', 23)} < 0.5 and now() - u.created_at > interval '3 hours'
      union all
      select u.user_id, 'wallet_withdrawal', -(100 + floor(${rnd('u.user_id', 24)} * 300))::int8 * 100, 'Wallet withdrawal',
             u.created_at + interval '3 days'
        ${members} and ${rnd('u.user_id', 25)} < 0.2 and now() - u.created_at > interval '3 days'
      union all
      -- Mobile recharges and bill payments: a top-up on about every other third day since joining
      -- (about ten ledger rows per member over a year of a growing network).
      select u.user_id, 'wallet_recharge', (100 + floor(${rnd('u.user_id * 1000 + m', 26)} * 900))::int8 * 100, 'Wallet recharge',
             u.created_at + make_interval(days => 3 * m)
        ${members.replace('from users u', `from users u cross join lateral generate_series(1, floor(extract(epoch from now() - u.created_at) / ${3 * 86400})::int) as m`)}
         and ${rnd('u.user_id * 1000 + m', 27)} < 0.45`);
    await run(tx, `
      create temp table seed_memberships on commit drop as
      select u.user_id, (case when ${rnd('u.user_id', 30)} < 0.5 then 499 else 999 end)::int8 * 100 as amount_paise,
             ${after('u.created_at', '2 hours', 0.6)} as created_at
        ${members} and ${rnd('u.user_id', 31)} < 0.4;
      insert into memberships (user_id, amount_paise, created_at) select user_id, amount_paise, created_at from seed_memberships;
      insert into ledger_entries (user_id, kind, amount_paise, description, created_at)
      select user_id, 'membership_fee', -amount_paise, 'Membership fee', created_at from seed_memberships;`);
    step('wallet recharges, withdrawals and membership fees');

    // Daily payouts for members with a membership, over the last 30 days.
    await run(tx, `
      create temp table seed_payouts on commit drop as
      select p.*, case when status = 'Success' then nextval(pg_get_serial_sequence('ledger_entries', 'id')) end as ledger_id
        from (
          select m.user_id, d::date as payout_date, (50 + floor(${rnd(`m.user_id * 1000 + (d::date - date '2000-01-01')`, 41)} * 450))::int8 * 100 as amount_paise,
                 case when ${rnd(`m.user_id * 1000 + (d::date - date '2000-01-01')`, 42)} < 0.85 then 'Success' else 'Failure' end as status,
                 (d::date + time '18:00') at time zone ${IST} as at
            from seed_memberships m
            cross join generate_series((now() at time zone ${IST})::date - ${Math.min(30, days)}, (now() at time zone ${IST})::date - 1, interval '1 day') as d
           where ${rnd(`m.user_id * 1000 + (d::date - date '2000-01-01')`, 40)} < 0.3 and (d::date + time '18:00') at time zone ${IST} > m.created_at
        ) p;
      insert into ledger_entries (id, user_id, kind, amount_paise, description, created_at)
      select ledger_id, user_id, 'daily_payout', amount_paise, 'Daily payout', at from seed_payouts where ledger_id is not null;
      insert into daily_payouts (user_id, payout_date, amount_paise, status, ledger_entry_id, paid_at, created_at)
      select user_id, payout_date, amount_paise, status, ledger_id, case when ledger_id is not null then at end, at from seed_payouts;`);
    step('daily payouts');

    // Royalty (weekly, ranked members) and reward batches (spec §9 reward types).
    const schedule: [string, string | null, number, number][] = [
      ['royalty', null, 7, 0.1], ['reward', 'dailyPayout', 3, 0.05], ['reward', 'monthlyReward', 30, 0.05],
      ['reward', 'royaltyIncome', 7, 0.05], ['reward', 'referral_bonus_10_users', 7, 0.05],
    ];
    for (const [kind, rewardType, every, share] of schedule) {
      await run(tx, `
        create temp table seed_batches on commit drop as
        select nextval(pg_get_serial_sequence('income_batches', 'batch_id')) as batch_id, d::date as run_date
          from generate_series((now() at time zone ${IST})::date - ${days - 1}, (now() at time zone ${IST})::date - 1, interval '${every} days') as d;
        insert into income_batches (batch_id, kind, reward_type, run_date)
        select batch_id, '${kind}', ${rewardType ? `'${rewardType}'` : 'null'}, run_date from seed_batches;
        insert into ledger_entries (user_id, kind, amount_paise, batch_id, description, created_at)
        select u.user_id, '${kind}', (100 + floor(${rnd('u.user_id * 100000 + s.batch_id', 50)} * 700))::int8 * 100, s.batch_id,
               '${kind === 'royalty' ? 'Royalty income' : `Reward: ${rewardType}`}', (s.run_date + time '20:00') at time zone ${IST}
          from seed_batches s
         cross join generate_series(0, ${Math.ceil(n * share) - 1}) as k
          -- k -> (k * prime + offset) mod n visits distinct members: a share of them per batch,
          -- generated directly instead of filtering every member of every batch.
          join users u on u.user_id = ${b} + 1 + ((k::int8 * 2147483647 + s.batch_id * 7919) % ${n})
         where u.created_at < (s.run_date + time '20:00') at time zone ${IST}
           ${kind === 'royalty' ? 'and u.rank_id is not null' : ''};
        drop table seed_batches;`);
      step(`${kind === 'royalty' ? 'royalty' : `reward (${rewardType})`} batches`);
    }

    await run(tx, `
      update users u set balance_paise = s.total
        from (select user_id, sum(amount_paise) as total from ledger_entries where user_id > ${b} and user_id <= ${b + n} group by user_id) s
       where u.user_id = s.user_id`);
    step('wallet balances');
    if (bulk) {
      await run(tx, `do $$ declare r record; begin
        for r in select def from seed_indexes loop execute r.def; end loop; end $$`);
      await run(tx, `do $$ declare r record; begin
        for r in select tbl, name, def from seed_fks loop execute format('alter table %s add constraint %I %s', r.tbl, r.name, r.def); end loop; end $$`);
      step('secondary indexes rebuilt, foreign keys checked');
    }
  });
  await database.exec('begin; set local statement_timeout = 0; analyze; commit');
  step(`done: ${n.toLocaleString('en-IN')} members`);
}
