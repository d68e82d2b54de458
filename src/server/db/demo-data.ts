import { sql } from 'drizzle-orm';
import { istToday } from '../modules/income/settings.ts';
import { bookHistory, HISTORY_TRANSFER_ID, postSet } from './books.ts';
import { rowsOf, type Database, type Db } from './client.ts';
import type { users } from './schema/members.ts';
import { activationStart, runEngineOverPastDays, seedMemberships } from './demo-income.ts';

/**
 * The deterministic demo-data generator: members in a referral tree up to 10 levels, bank
 * accounts and wallet traffic over the last `days` days (recharges, withdrawals), then memberships
 * with their fees and level income (demo-income.ts), and then the income engine itself runs over
 * the past days (issue 16): daily payouts with Success and Failure, royalty, rewards and rank
 * promotions all come from its runs, never inserted here.
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
const BULK_TABLES = ['users', 'bank_accounts', 'memberships', 'ledger_entries'];

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
/** The highest member id so far (the demo's members are numbered after it). */
type BaseIdRow = { base: (typeof users.$inferSelect)['userId'] };

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
    const [{ base }] = rowsOf<BaseIdRow>(
      await tx.execute(sql`select coalesce(max(user_id), 100000) as base from users`),
    );
    const b = Number(base);
    const bulk = n >= BULK_MEMBERS;
    const activationFrom = activationStart(await istToday(tx), days, bulk);
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
      // Half the deepest level (leaves: no branch thins) joins under one of the first 1 % of the
      // level above (the network's leaders), the rest under anyone of it: leaders with 10 and more
      // active direct referrals exist at any size of a few hundred and up (the one-time referral
      // bonus, the higher ranks).
      const leaders = k === sizes.length && k >= 3 ? Math.ceil(prevSize / 100) : prevSize;
      const referrer = k === 1 ? 'null'
        : `${b} + ${prevStart} + (abs(hashint8extended(i, 7)) % (case when ${rnd('i', 15)} < 0.5 then ${leaders} else ${prevSize} end))`;
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
      insert into ledger_entries (user_id, kind, amount_paise, description, created_at, transfer_id)
      select *, ${HISTORY_TRANSFER_ID} from (
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
         and ${rnd('u.user_id * 1000 + m', 27)} < 0.45) h`);
    await bookHistory(tx);
    step('wallet recharges and withdrawals');
    await seedMemberships(tx, { b, n, from: activationFrom, run });
    step('plans, settings and memberships with their fees and level income');

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
  // Seven in ten members have given their PAN (issue 25: TDS at the PAN rate; the others at the
  // rate without one). A made-up PAN of the right shape (a person: P fourth), from the member's id.
  await database.exec(`
    update users set pan = chr(65 + (user_id % 26)::int) || chr(65 + (user_id / 26 % 26)::int) || chr(65 + (user_id / 676 % 26)::int) || 'P'
                           || chr(65 + (user_id / 17 % 26)::int) || lpad((user_id % 10000)::text, 4, '0') || chr(65 + (user_id / 7 % 26)::int)
     where not can_sign_in and deleted_at is null and pan is null and user_id % 10 < 7`);
  step('PANs');
  // The engine then pays what the memberships earned, day by day, and runs the month's kinds.
  await runEngineOverPastDays(database, step);
  await demoWithdrawalsToSend(database);
  step('withdrawals to send to banks');
  // The planner's statistics once more, now that the engine has written the income's lines (tds,
  // daily payouts, rewards): the analyze above saw none, and without autovacuum (or before it
  // comes round) the TDS report planned on them read a whole day's payouts per row (5,000
  // members: 194 ms a page instead of 9 ms).
  await database.exec('begin; set local statement_timeout = 0; analyze; commit');
  step('planner statistics brought up to date');
  step(`done: ${n.toLocaleString('en-IN')} members`);
}

/**
 * Today's approved withdrawals (issue 25), so Bank Transfers has something to gather: up to 25
 * members with a primary bank account and at least ₹500 each take ₹100–₹400 out, through the
 * posting function (each its own transfer, against "Withdrawals to send").
 */
async function demoWithdrawalsToSend(database: Database): Promise<void> {
  await database.db.transaction((tx) => postSet(tx, { kind: 'wallet_withdrawal', system: 'demo data' }, {
    perLine: true,
    lines: sql`
      select u.user_id as ord, null::int8 as id, u.user_id, 'wallet_withdrawal'::text as kind,
             -(10000 + (u.user_id % 4) * 10000)::int8 as amount_paise, null::int as batch_id,
             'Withdrawal to the bank (demo)'::text as description, null::int8 as reversal_of, null::timestamptz as created_at
        from users u
       where u.deleted_at is null and not u.can_sign_in and u.balance_paise >= 50000
         and exists (select 1 from bank_accounts b where b.user_id = u.user_id and b.is_primary)
       order by u.user_id limit 25`,
  }));
}
