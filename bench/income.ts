import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { bookHistory } from '../src/server/db/books.ts';
import { ensureReferenceData } from '../src/server/db/bootstrap.ts';
import { openPglite, openPostgres, rowsOf, type Database } from '../src/server/db/client.ts';
import { moneyInvariantViolations } from '../src/server/lib/money-invariants.ts';
import { percentToBp } from '../src/contract/income.ts';
import { activateMembership } from '../src/server/modules/income/activation.service.ts';
import { shareOf } from '../src/server/modules/income/level-income.ts';
import { insertPlan, upsertVersion } from '../src/server/modules/income/plans.repository.ts';
import { kick, previewRun, runChunkSize, runToEnd } from '../src/server/modules/income/runs/engine.ts';
import { reverseRun } from '../src/server/modules/income/runs/reversal.ts';
import { addDays, istToday, settingsOn } from '../src/server/modules/income/settings.ts';
import type { incomeRuns } from '../src/server/db/schema/income.ts';
import type { users } from '../src/server/db/schema/members.ts';

type UserId = (typeof users.$inferSelect)['userId'];
/** The bench members' first and last ids. */
type IdRangeRow = { lo: UserId; hi: UserId };
type UserIdRow = { user_id: UserId };
/** A connection's backend process id. */
type PidRow = { pid: number };
/** The activations' outcome: buyers, memberships, buyers whose 10 levels were paid in full, emptied wallets. */
type ActivationCheckRow = { buyers: number; members: number; paid: number; emptied: number };
type RunStatusRow = Pick<typeof incomeRuns.$inferSelect, 'status'>;

// npm run bench -- --only income [--members N] [--keep] [--parts payout,activations]
//   [--activations N] [--activation-workers K] [--chains C]   (or: node --import tsx bench/income.ts …)
// The income engine at scale (issue 16): seeds N members each holding an active membership and a
// rank, with their fees in the previous month (set-based), then times the daily payout run
// (preview, run, reversal), the royalty run of the previous month, and activations with 10 levels
// of level income (per second), checking the money invariants after each. PostgreSQL when
// BENCH_DATABASE_URL names a server (a fresh database is created on it and dropped after, unless
// --keep), else PGlite in a temporary directory. Targets: daily payout of 1,000,000 ≤ 60 s on
// PostgreSQL (100,000 on PGlite), royalty month at 1,000,000 ≤ 60 s, activations ≥ 300/s.
// --parts picks what runs (default both): `payout` (daily payout, reversal, royalty month) and
// `activations`; with only `activations` the members default to 10,000. Activations are measured
// twice: one after another under one chain of 10 (one activation's latency), then throughput:
// --activations buyers (2,000; 1,000 on PGlite) spread round-robin under the ends of --chains
// independent chains of 10 active members (200), activated by --activation-workers concurrent
// workers (8; the pool gets K + 2 connections), each one buyer at a time in its own transaction.
// Database CPU per activation is read from /proc for the pool's backends when the server is local.
const argv = process.argv.slice(2);
const option = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const serverUrl = process.env.BENCH_DATABASE_URL;
const parts = new Set((option('parts') ?? 'payout,activations').split(','));
for (const part of parts) if (part !== 'payout' && part !== 'activations') throw new Error(`--parts: unknown part ${part} (payout, activations)`);
const members = Number(option('members') ?? (!parts.has('payout') ? 10_000 : serverUrl ? 1_000_000 : 100_000));
const workers = Number(option('activation-workers') ?? 8);
const chains = Number(option('chains') ?? 200);
const activationCount = Number(option('activations') ?? (serverUrl ? 2000 : 1000));
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
      database: await openPostgres(u.toString(), Math.max(10, workers + 2)),
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
  const [ids] = await database.query<IdRangeRow>(
    `select min(user_id)::int8 as lo, max(user_id)::int8 as hi from users where email like 'bench%@income.bench'`);
  for (let from = Number(ids.lo); from <= Number(ids.hi); from += step) {
    await database.exec(`
      insert into ledger_entries (user_id, kind, amount_paise, description, created_at, transfer_id)
      select u.user_id, v.kind, v.amount, v.description, (date '${previousMonthStart(day)}' + (u.user_id % 28)::int + time '10:00') at time zone 'Asia/Kolkata', nextval(pg_get_serial_sequence('transfers', 'id'))
        from users u cross join (values (1, 'wallet_recharge', 100000::int8, 'Wallet recharge'), (2, 'membership_fee', -100000::int8, 'Membership fee')) v(k, kind, amount, description)
       where u.email like 'bench%@income.bench' and u.user_id >= ${from} and u.user_id < ${from + step}
       order by u.user_id, v.k`);
    await bookHistory(database.db);
  }
  await database.exec('vacuum (analyze)');
}

function previousMonthStart(day: string): string {
  return `${addDays(`${day.slice(0, 8)}01`, -1).slice(0, 8)}01`;
}

/** Links `count` × 10 active seeded members (after the first `skip`) into chains of 10, each referred by the one before; the chains' ends. */
async function buildChains(database: Database, count: number, skip: number): Promise<number[]> {
  const ends = await database.query<UserIdRow>(`
    with picked as (
      select user_id, row_number() over (order by user_id) - 1 as n
        from (select user_id from users where email like 'bench%@income.bench' and status
               order by user_id offset ${skip} limit ${count * 10}) s
    ), linked as (
      update users u set referred_by = p.user_id from picked c join picked p on p.n = c.n - 1
       where u.user_id = c.user_id and c.n % 10 <> 0
    )
    select user_id from picked where n % 10 = 9 order by n`);
  if (ends.length !== count) throw new Error(`${count} chains of 10 need ${count * 10} active members after the first ${skip}: seed more (--members)`);
  return ends.map((e) => Number(e.user_id));
}

/** `count` new members holding the price in their wallet, buyer g under ends[g mod chains] (round-robin). */
async function addBuyers(database: Database, tag: string, count: number, ends: readonly number[], pricePaise: number): Promise<number[]> {
  const fresh = await database.query<UserIdRow>(`
    with added as (
      insert into users (full_name, email, phone, referral_code, status, referred_by, balance_paise)
      select 'Bench Buyer ${tag} ' || g, '${tag}' || g || '@buyer.bench', (${tag === 'seq' ? 8_000_000_000 : 8_100_000_000} + g)::text,
             upper('${tag}') || g, true, ('{${ends.join(',')}}'::int8[])[1 + (g - 1) % ${ends.length}], ${pricePaise}
        from generate_series(1, ${count}) g
      returning user_id
    ), credited as (
      insert into ledger_entries (user_id, kind, amount_paise, description, transfer_id)
      select user_id, 'wallet_recharge', ${pricePaise}, 'Wallet recharge', nextval(pg_get_serial_sequence('transfers', 'id')) from added
    )
    select user_id from added order by user_id`);
  await bookHistory(database.db);
  return fresh.map((f) => Number(f.user_id));
}

const clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

/** CPU seconds (user + system) of these local processes, or null when one cannot be read (a remote server). */
function cpuSeconds(pids: readonly number[]): number | null {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      return null;
    }
  }
  return ticks / clockTicks;
}

/**
 * The backend pids of `k` pooled connections: k transactions held open at once until all have
 * answered, so each is on a connection of its own (PostgreSQL only; PGlite runs one at a time).
 */
async function poolBackends(database: Database, k: number): Promise<number[]> {
  if (database.kind !== 'postgres') return [];
  let arrived = 0;
  let release = () => {};
  const everyone = new Promise<void>((resolve) => (release = resolve));
  return Promise.all(Array.from({ length: k }, () => database.db.transaction(async (tx) => {
    const [row] = rowsOf<PidRow>(await tx.execute(sql`select pg_backend_pid() as pid`));
    if (++arrived === k) release();
    await everyone;
    return Number(row.pid);
  })));
}

interface Batch {
  perSecond: number;
  seconds: number;
  /** Per activation, ms: the bench process (service code, driver) and the pool's backends (null: not measurable). */
  nodeCpuMs: number;
  dbCpuMs: number | null;
}

/**
 * Activates every buyer through activateMembership (the service the route calls: plan terms, the
 * membership, fee, 10 uplines locked and credited, one transaction each), `k` workers at once,
 * each taking the next buyer when its last one committed.
 */
async function activateAll(database: Database, planId: number, buyers: readonly number[], k: number): Promise<Batch> {
  const money = { actorId: 0, makerId: 0, approved: false, approvalThresholdPaise: 0, dailyCreditLimitPaise: 0, dailyDebitLimitPaise: 0 };
  const pids = await poolBackends(database, k);
  const dbBefore = database.kind === 'postgres' ? cpuSeconds(pids) : null;
  const nodeBefore = process.cpuUsage();
  const started = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: k }, async () => {
    while (next < buyers.length) {
      const userId = buyers[next++];
      const result = await database.db.transaction((tx) => activateMembership(tx, money, { userId, planId, paidVia: 'wallet' }));
      if (result.status !== 201) throw new Error(`activation of ${userId} answered ${result.status}`);
    }
  }));
  const elapsed = (performance.now() - started) / 1000;
  const node = process.cpuUsage(nodeBefore);
  const dbAfter = dbBefore === null ? null : cpuSeconds(pids);
  return {
    perSecond: buyers.length / elapsed,
    seconds: elapsed,
    nodeCpuMs: (node.user + node.system) / 1000 / buyers.length,
    dbCpuMs: dbBefore === null || dbAfter === null ? null : ((dbAfter - dbBefore) * 1000) / buyers.length,
  };
}

/** What is wrong with the buyers after their activations: each holds one membership, paid its whole wallet, and gave exactly 10 level-income lines of the expected total. */
async function activationProblems(database: Database, buyers: readonly number[], levelTotal: number): Promise<string[]> {
  const [row] = await database.query<ActivationCheckRow>(`
    select count(*)::int as buyers, count(m.id)::int as members,
           count(*) filter (where l.lines = 10 and l.total = ${levelTotal})::int as paid, count(*) filter (where u.balance_paise = 0)::int as emptied
      from users u
      left join memberships m on m.user_id = u.user_id
      left join (select substring(description from 'member (\\d+)$')::int8 as buyer, count(*) as lines, sum(amount_paise) as total
                   from ledger_entries where kind = 'level_income' group by 1) l on l.buyer = u.user_id
     where u.user_id = any ($1::int8[])`, [buyers]);
  const problems: string[] = [];
  if (row.buyers !== buyers.length) problems.push(`${buyers.length - row.buyers} buyers missing`);
  if (row.members !== buyers.length) problems.push(`${buyers.length - row.members} buyers without a membership`);
  if (row.paid !== buyers.length) problems.push(`${buyers.length - row.paid} buyers without exactly 10 level-income lines of ${levelTotal} paise`);
  if (row.emptied !== buyers.length) problems.push(`${buyers.length - row.emptied} buyers with money left in the wallet`);
  return problems;
}

/**
 * Activations with 10 levels of level income (every upline holds an active membership, so every
 * level is paid): first `sequentialCount` buyers under one chain, one after another on one
 * connection (the figure is one activation's latency); then `activationCount` buyers spread over
 * `chains` independent chains, `workers` at once (throughput).
 */
async function activations(database: Database, day: string, sequentialCount: number) {
  const { db } = database;
  const pricePaise = 99_900;
  const planId = await insertPlan(db, 'Bench Gold');
  await upsertVersion(db, planId, {
    effectiveFrom: day, pricePaise, dailyMode: 'fixed', dailyValue: 1_500, durationDays: 150, capPaise: 199_800, active: true, createdBy: null,
  });
  const { settings } = await settingsOn(db, day);
  const levelTotal = settings.levelIncome.map(percentToBp).reduce((sum, bp) => sum + shareOf(pricePaise, bp), 0);

  const [one] = await buildChains(database, 1, 0);
  const sequentialBuyers = await addBuyers(database, 'seq', sequentialCount, [one], pricePaise);
  const ends = await buildChains(database, chains, 10);
  const buyers = await addBuyers(database, 'par', activationCount, ends, pricePaise);
  await database.exec('analyze users; analyze ledger_entries');

  const sequential = await activateAll(database, planId, sequentialBuyers, 1);
  const concurrent = await activateAll(database, planId, buyers, workers);
  const problems = [
    ...await activationProblems(database, sequentialBuyers, levelTotal),
    ...await activationProblems(database, buyers, levelTotal),
  ];
  return { sequential, concurrent, problems };
}

const cpuNote = (kind: Database['kind'], b: Batch) => (kind === 'pglite'
  ? `CPU ${b.nodeCpuMs.toFixed(2)} ms per activation, the embedded database included`
  : `database CPU ${b.dbCpuMs === null ? 'not measured' : `${b.dbCpuMs.toFixed(2)} ms`}, bench process CPU ${b.nodeCpuMs.toFixed(2)} ms per activation`);

const { database, drop } = await open();
try {
  const day = await istToday(database.db);
  let t = Date.now();
  await seed(database, day);
  log(`${database.kind}: seeded ${members.toLocaleString('en-IN')} members with active memberships in ${seconds(t).toFixed(1)} s`);
  let violations: string[] = [];
  const results: string[] = [];

  if (parts.has('payout')) {
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
    violations = await moneyInvariantViolations(database);
    log(`money invariants after the run: ${violations.length === 0 ? 'hold' : `BROKEN (${violations.slice(0, 5).join('; ')})`} (${seconds(t).toFixed(1)} s)`);

    t = Date.now();
    // The request's first range, then the rest in the background, as POST /reverse does.
    const reversal = await database.db.transaction((tx) => reverseRun(tx, {
      actorId: 0, makerId: 0, approved: true, approvalThresholdPaise: 0, dailyCreditLimitPaise: 0, dailyDebitLimitPaise: 0,
    }, { runId: run.runId, remarks: 'bench' }, runChunkSize(database)));
    if (reversal.background) await kick(database, run.runId);
    const [reversed] = await database.query<RunStatusRow>('select status from income_runs where run_id = $1', [run.runId]);
    if (reversed.status !== 'reversed') throw new Error(`the reversal ended ${reversed.status}`);
    log(`reversal (ranges of ${runChunkSize(database).toLocaleString('en-IN')} members, one transaction each): ${seconds(t).toFixed(1)} s`);
    violations = violations.concat(await moneyInvariantViolations(database));
    log(`money invariants after the reversal: ${violations.length === 0 ? 'hold' : `BROKEN (${violations.slice(0, 5).join('; ')})`}`);

    t = Date.now();
    const royalty = await runToEnd(database, { kind: 'royalty', day: previousMonthStart(day), startedBy: null });
    const royaltySeconds = seconds(t);
    const pool = (royalty.state as { poolPaise?: number }).poolPaise;
    log(`royalty run ${royalty.runId} (${royalty.periodStart} to ${royalty.periodEnd}): ${royalty.status} in ${royaltySeconds.toFixed(1)} s — `
      + `pool ${pool} paise, ${royalty.paid} receivers, ${royalty.grossPaise} paise shared`);
    if (royalty.status !== 'completed') throw new Error(`the royalty run ended ${royalty.status}: ${royalty.error}`);
    violations = violations.concat(await moneyInvariantViolations(database));
    results.push(
      `daily payout of ${members.toLocaleString('en-IN')} memberships: ${runSeconds.toFixed(1)} s (target ≤ 60 s)`,
      `royalty month over ${members.toLocaleString('en-IN')} members (${royalty.paid.toLocaleString('en-IN')} ranked): ${royaltySeconds.toFixed(1)} s (target ≤ 60 s)`,
    );
  }

  if (parts.has('activations')) {
    const { sequential, concurrent, problems } = await activations(database, day, activationCount);
    log(`${activationCount} activations under one chain, one after another: ${sequential.perSecond.toFixed(0)} per second `
      + `(${((sequential.seconds * 1000) / activationCount).toFixed(2)} ms each; ${cpuNote(database.kind, sequential)})`);
    log(`${activationCount} activations over ${chains} independent chains, ${workers} workers: ${concurrent.perSecond.toFixed(0)} per second `
      + `in ${concurrent.seconds.toFixed(1)} s (${cpuNote(database.kind, concurrent)})`);
    log(`buyers: ${problems.length === 0 ? 'each holds one membership and gave exactly 10 level-income lines' : `WRONG (${problems.join('; ')})`}`);
    violations = violations.concat(problems, await moneyInvariantViolations(database));
    results.push(
      `activations with 10 levels, ${workers} workers over ${chains} chains: ${concurrent.perSecond.toFixed(0)} per second (target ≥ 300/s)`,
      `activations with 10 levels, one chain, one after another: ${sequential.perSecond.toFixed(0)} per second`,
    );
  }
  log(`money invariants at the end: ${violations.length === 0 ? 'hold' : `BROKEN (${violations.slice(0, 5).join('; ')})`}`);
  for (const line of results) log(`RESULT ${database.kind} ${line}`);
  if (violations.length > 0) process.exitCode = 1;
} finally {
  await database.close();
  await drop();
}
