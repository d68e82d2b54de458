import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ensureReferenceData } from '../src/server/db/bootstrap.ts';
import { openPglite, openPostgres, type Database } from '../src/server/db/client.ts';
import { moneyInvariantViolations } from '../src/server/lib/money-invariants.ts';
import { activateMembership } from '../src/server/modules/income/activation.service.ts';
import { insertPlan, upsertVersion } from '../src/server/modules/income/plans.repository.ts';
import { previewRun, reverseRun, runToEnd } from '../src/server/modules/income/runs/engine.ts';
import { addDays, istToday } from '../src/server/modules/income/settings.ts';

// npm run bench -- --only income [--members N] [--keep]   (or: node --import tsx bench/income.ts …)
// The income engine at scale (issue 16): seeds N members each holding an active membership and a
// rank, with their fees in the previous month (set-based), then times the daily payout run
// (preview, run, reversal), the royalty run of the previous month, and activations with 10 levels
// of level income (per second), checking the money invariants after each. PostgreSQL when
// BENCH_DATABASE_URL names a server (a fresh database is created on it and dropped after, unless
// --keep), else PGlite in a temporary directory. Targets: daily payout of 1,000,000 ≤ 60 s on
// PostgreSQL (100,000 on PGlite), royalty month at 1,000,000 ≤ 60 s, activations ≥ 300/s.
const argv = process.argv.slice(2);
const option = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const serverUrl = process.env.BENCH_DATABASE_URL;
const members = Number(option('members') ?? (serverUrl ? 1_000_000 : 100_000));
const keep = argv.includes('--keep');
const log = (m: string) => console.log(`[bench:income] ${m}`);

async function open(): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (serverUrl) {
    const name = `bench_income_${Date.now()}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const u = new URL(serverUrl);
    u.pathname = `/${name}`;
    return {
      database: await openPostgres(u.toString()),
      drop: async () => {
        if (keep) return log(`kept database ${name}`);
        const c = new pg.Client({ connectionString: serverUrl });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`);
        await c.end();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'backoffice-income-bench-'));
  return { database: await openPglite(dir), drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}

const seconds = (since: number) => (Date.now() - since) / 1000;

async function seed(database: Database, day: string) {
  await database.migrate();
  await ensureReferenceData(database);
  const step = 100_000;
  for (let from = 1; from <= members; from += step) {
    const to = Math.min(members, from + step - 1);
    await database.exec(`
      insert into users (full_name, email, phone, referral_code, status, rank_id, created_at, updated_at)
      select 'Bench Member ' || g, 'bench' || g || '@income.bench', (7000000000 + g)::text, 'BENCH' || g, g % 50 <> 0,
             case when g % 3 = 0 then 100001 + (g % 4)::int end, date '${previousMonthStart(day)}' - 30, date '${previousMonthStart(day)}' - 30
        from generate_series(${from}, ${to}) g`);
  }
  // Every third member holds a rank (Bronze to Platinum, royalty weights 1, 2, 4, 8): the royalty's
  // receivers. Every member holds an active membership: ₹1,000 at 1 % a day (₹10), a cap of ₹2,000, 200 days,
  // earning from 10 days back; every 7th is 5 paise under its cap (its last payment is the rest).
  await database.exec(`
    insert into memberships (user_id, amount_paise, daily_paise, cap_paise, duration_days, starts_on, earned_paise, days_earned, status, paid_via)
    select user_id, 100000, 1000, 200000, 200, date '${day}' - 10, case when user_id % 7 = 0 then 199995 else 9000 end, 9, 'active', 'wallet'
      from users where email like 'bench%@income.bench'`);
  // Each member's fee is in the previous month's revenue (ledger_daily, by trigger):
  // a recharge of the price and the fee, the same moment, so balances stay as they were.
  const [ids] = await database.query<{ lo: number; hi: number }>(
    `select min(user_id)::int8 as lo, max(user_id)::int8 as hi from users where email like 'bench%@income.bench'`);
  for (let from = Number(ids.lo); from <= Number(ids.hi); from += step) {
    await database.exec(`
      insert into ledger_entries (user_id, kind, amount_paise, description, created_at)
      select u.user_id, v.kind, v.amount, v.description, (date '${previousMonthStart(day)}' + (u.user_id % 28)::int + time '10:00') at time zone 'Asia/Kolkata'
        from users u cross join (values (1, 'wallet_recharge', 100000::int8, 'Wallet recharge'), (2, 'membership_fee', -100000::int8, 'Membership fee')) v(k, kind, amount, description)
       where u.email like 'bench%@income.bench' and u.user_id >= ${from} and u.user_id < ${from + step}
       order by u.user_id, v.k`);
  }
  await database.exec('vacuum (analyze)');
}

function previousMonthStart(day: string): string {
  return `${addDays(`${day.slice(0, 8)}01`, -1).slice(0, 8)}01`;
}

/**
 * Activations with 10 levels of level income: a chain of 10 members (each holding an active
 * membership, so every level is paid), then `count` new members under its end, each with the
 * price in their wallet, activated one after another through activateMembership (the service the
 * route calls: plan terms, the membership, fee, 10 uplines locked and credited, one transaction each).
 */
async function activations(database: Database, day: string, count: number) {
  const { db } = database;
  const planId = await insertPlan(db, 'Bench Gold');
  await upsertVersion(db, planId, {
    effectiveFrom: day, pricePaise: 99_900, dailyMode: 'fixed', dailyValue: 1_500, durationDays: 150, capPaise: 199_800, active: true, createdBy: null,
  });
  const chain = await database.query<{ user_id: number }>(
    `select user_id from users where email like 'bench%@income.bench' and status order by user_id limit 10`);
  for (let i = 1; i < chain.length; i++) {
    await database.exec(`update users set referred_by = ${chain[i - 1].user_id} where user_id = ${chain[i].user_id}`);
  }
  const end = chain[chain.length - 1].user_id;
  const fresh = await database.query<{ user_id: number }>(`
    with added as (
      insert into users (full_name, email, phone, referral_code, status, referred_by, balance_paise)
      select 'Bench Buyer ' || g, 'buyer' || g || '@income.bench', (8000000000 + g)::text, 'BUYER' || g, true, ${end}, 99900
        from generate_series(1, ${count}) g
      returning user_id
    ), credited as (
      insert into ledger_entries (user_id, kind, amount_paise, description) select user_id, 'wallet_recharge', 99900, 'Wallet recharge' from added
    )
    select user_id from added order by user_id`);
  const money = { actorId: 0, makerId: 0, approved: false, approvalThresholdPaise: 0, dailyCreditLimitPaise: 0 };
  const started = Date.now();
  for (const { user_id: userId } of fresh) {
    const result = await db.transaction((tx) => activateMembership(tx, money, { userId: Number(userId), planId, paidVia: 'wallet' }));
    if (result.status !== 201) throw new Error(`activation of ${userId} answered ${result.status}`);
  }
  const perSecond = count / seconds(started);
  const [lines] = await database.query<{ n: number }>(
    `select count(*)::int as n from ledger_entries where kind = 'level_income' and description like '%member ${Number(fresh[0].user_id)}'`);
  return { perSecond, levels: Number(lines.n) };
}

const { database, drop } = await open();
try {
  const day = await istToday(database.db);
  let t = Date.now();
  await seed(database, day);
  log(`${database.kind}: seeded ${members.toLocaleString('en-IN')} members with active memberships in ${seconds(t).toFixed(1)} s`);

  t = Date.now();
  const preview = await previewRun(database, 'daily_payout', day);
  log(`preview: ${seconds(t).toFixed(1)} s (${preview.tally.paid} to pay, ${preview.tally.failed} failures)`);

  t = Date.now();
  const run = await runToEnd(database, { kind: 'daily_payout', day, startedBy: null });
  const runSeconds = seconds(t);
  log(`daily payout run ${run.runId}: ${run.status} in ${runSeconds.toFixed(1)} s — ${run.done} memberships, ${run.paid} paid, ${run.failed} failures, `
    + `gross ${run.grossPaise} paise, deductions ${run.deductionsPaise} paise`);
  if (run.status !== 'completed') throw new Error(`the run ended ${run.status}: ${run.error}`);
  if (run.paid !== preview.tally.paid || run.grossPaise !== preview.tally.grossPaise) throw new Error('the preview and the run disagree');

  t = Date.now();
  let violations = await moneyInvariantViolations(database);
  log(`money invariants after the run: ${violations.length === 0 ? 'hold' : `BROKEN (${violations.slice(0, 5).join('; ')})`} (${seconds(t).toFixed(1)} s)`);

  t = Date.now();
  await database.db.transaction((tx) => reverseRun(tx, {
    actorId: 0, makerId: 0, approved: true, approvalThresholdPaise: 0, dailyCreditLimitPaise: 0,
  }, { runId: run.runId, remarks: 'bench' }));
  log(`reversal (one transaction): ${seconds(t).toFixed(1)} s`);
  violations = await moneyInvariantViolations(database);
  log(`money invariants after the reversal: ${violations.length === 0 ? 'hold' : `BROKEN (${violations.slice(0, 5).join('; ')})`}`);

  t = Date.now();
  const royalty = await runToEnd(database, { kind: 'royalty', day: previousMonthStart(day), startedBy: null });
  const royaltySeconds = seconds(t);
  const pool = (royalty.state as { poolPaise?: number }).poolPaise;
  log(`royalty run ${royalty.runId} (${royalty.periodStart} to ${royalty.periodEnd}): ${royalty.status} in ${royaltySeconds.toFixed(1)} s — `
    + `pool ${pool} paise, ${royalty.paid} receivers, ${royalty.grossPaise} paise shared`);
  if (royalty.status !== 'completed') throw new Error(`the royalty run ended ${royalty.status}: ${royalty.error}`);
  violations = violations.concat(await moneyInvariantViolations(database));

  const count = database.kind === 'postgres' ? 2000 : 1000;
  const activated = await activations(database, day, count);
  log(`${count} activations with ${activated.levels} levels of level income each: ${activated.perSecond.toFixed(0)} per second (one after another)`);
  violations = violations.concat(await moneyInvariantViolations(database));
  log(`money invariants after the royalty run and the activations: ${violations.length === 0 ? 'hold' : `BROKEN (${violations.slice(0, 5).join('; ')})`}`);

  log(`RESULT ${database.kind} daily payout of ${members.toLocaleString('en-IN')} memberships: ${runSeconds.toFixed(1)} s (target ≤ 60 s)`);
  log(`RESULT ${database.kind} royalty month over ${members.toLocaleString('en-IN')} members (${royalty.paid.toLocaleString('en-IN')} ranked): ${royaltySeconds.toFixed(1)} s (target ≤ 60 s)`);
  log(`RESULT ${database.kind} activations with 10 levels: ${activated.perSecond.toFixed(0)} per second (target ≥ 300/s)`);
  if (violations.length > 0) process.exitCode = 1;
} finally {
  await database.close();
  await drop();
}
