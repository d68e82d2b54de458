import pg from 'pg';
import { quarterDays } from '../src/contract/tax.ts';
import { bookHistory } from '../src/server/db/books.ts';
import { ensureReferenceData } from '../src/server/db/bootstrap.ts';
import { openPostgres, type Database } from '../src/server/db/client.ts';
import type { Ctx } from '../src/server/lib/context.ts';
import { runToEnd } from '../src/server/modules/income/runs/engine.ts';
import { addDays } from '../src/server/modules/income/settings.ts';
import * as tax from '../src/server/modules/tax/tax.service.ts';

/** A trigger function's calls and time (pg_stat_user_functions). */
type FunctionStatsRow = { funcname: string; calls: number; total: number };
/** The ledger's tds lines and all its lines. */
type TdsLinesRow = { tds: number; lines: number };

// node --import tsx bench/tds.ts [--members N] [--days D] [--runs R] [--database NAME] [--keep] [--explain] [--plain] [--name NAME] [--reps N]
// The TDS report at scale (issue 25, docs/tax.md), on PostgreSQL (BENCH_DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432; a database tds_bench_<time>, dropped after unless --keep).
// Seeds N members (200,000), four in five with a PAN, each with an active membership, and D business
// days (20) of Q1 FY 2026-27 written straight into the ledger (per member and day a daily_payout
// line and its tds line, one statement per day, the ledger's triggers doing their work), then times
// the report: page 1, the last page (each with the quarter's totals) and the whole CSV.
// --runs R (instead): the hot path. Pays R business days with the real daily payout run and prints
// each run's time and the time spent in each trigger function (N = 40,000: 2 chunks a run). Every
// other run has the tds_quarters trigger disabled (the chunk keeps the rollup for its own lines and
// turns the trigger off itself, so this only shows that it costs nothing there); --plain leaves it,
// to time the same runs against the code before the change. --database NAME reuses a database seeded with --keep;
// --explain prints each report statement's plan (auto_explain, analyze). (docs/tax.md's "before"
// figures: this script run against a copy of the report's code before the rollup.)
// --plain: --runs without toggling the trigger (to compare with the code before the change).
const argv = process.argv.slice(2);
const option = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const members = Number(option('members') ?? 200_000);
const days = Number(option('days') ?? 20);
const reuse = option('database');
const keep = argv.includes('--keep') || reuse !== undefined;
const explain = argv.includes('--explain');
const runs = Number(option('runs') ?? 0);
const log = (m: string) => console.log(`[bench:tds] ${m}`);

if (explain) {
  // Each statement's plan comes back as a notice (auto_explain at client_min_messages = log).
  const connect = pg.Client.prototype.connect;
  pg.Client.prototype.connect = function (this: pg.Client, ...args: unknown[]) {
    this.on('notice', (n) => { if (String(n.message).includes('Query Text')) console.log(String(n.message).slice(0, 6000)); });
    return (connect as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof connect;
}

async function admin(statement: string) {
  const c = new pg.Client({ connectionString: serverUrl });
  await c.connect();
  try { await c.query(statement); } finally { await c.end(); }
}

const name = reuse ?? option('name') ?? `tds_bench_${Date.now()}`;
if (!reuse) {
  await admin(`create database ${name}`);
  // The time spent in each trigger function (pg_stat_user_functions), for --runs.
  await admin(`alter database ${name} set track_functions = 'pl'`);
}
const u = new URL(serverUrl);
u.pathname = `/${name}`;
const database: Database = await openPostgres(u.toString(), explain ? 1 : 4);
const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(2);

/** The first `n` business days of April 2026 (Q1 FY 2026-27). */
function businessDays(n: number): string[] {
  const out: string[] = [];
  for (let d = '2026-04-01'; out.length < n; d = addDays(d, 1)) {
    const w = new Date(`${d}T00:00:00Z`).getUTCDay();
    if (w >= 1 && w <= 5) out.push(d);
  }
  return out;
}

async function seed() {
  await database.migrate();
  await ensureReferenceData(database);
  const step = 100_000;
  for (let from = 1; from <= members; from += step) {
    const to = Math.min(members, from + step - 1);
    await database.exec(`
      insert into users (full_name, email, phone, referral_code, status, pan, created_at, updated_at)
      select 'Tds Member ' || g, 'tds' || g || '@tds.bench', (7000000000 + g)::text, 'TDS' || g, true,
             case when g % 5 <> 0 then 'ABCDE' || lpad((g % 10000)::text, 4, '0') || 'F' end, date '2026-03-01', date '2026-03-01'
        from generate_series(${from}, ${to}) g`);
  }
  await database.exec(`
    insert into memberships (user_id, amount_paise, daily_paise, cap_paise, duration_days, starts_on, earned_paise, days_earned, status, paid_via)
    select user_id, 100000, 1000 + (user_id % 7) * 100, 1000000, 300, date '2026-03-25', 0, 0, 'active', 'wallet'
      from users where email like 'tds%@tds.bench'`);
  await bookHistory(database.db);
  if (runs > 0) return database.exec('vacuum (analyze)');
  for (const day of businessDays(days)) {
    const t = performance.now();
    await database.exec(`
      insert into ledger_entries (user_id, kind, amount_paise, description, created_at, transfer_id)
      select u.user_id, v.kind, v.amount, v.description, (date '${day}' + time '06:00') at time zone 'Asia/Kolkata', nextval(pg_get_serial_sequence('transfers', 'id'))
        from (select user_id, 1000 + (user_id % 7) * 100 as gross, pan from users where email like 'tds%@tds.bench') u
        cross join lateral (values (1, 'daily_payout', u.gross::int8, 'Daily payout for ${day}'),
                                   (2, 'tds', -(u.gross * case when u.pan is null then 2000 else 200 end / 10000)::int8, 'TDS on daily payout for ${day}')) v(k, kind, amount, description)
       order by u.user_id, v.k`);
    log(`lines of ${day}: ${seconds(t)} s`);
  }
  await database.exec('vacuum (analyze)');
}

try {
  let t = performance.now();
  if (!reuse) {
    await seed();
    log(`seeded ${members.toLocaleString('en-IN')} members in ${seconds(t)} s`);
  }
  if (runs > 0) {
    const times: Record<'with' | 'without', number[]> = { with: [], without: [] };
    for (const [i, day] of businessDays(runs).entries()) {
      const mode = i % 2 === 0 ? 'without' : 'with';
      if (!argv.includes('--plain')) await database.exec(`alter table ledger_entries ${mode === 'with' ? 'enable' : 'disable'} trigger tds_quarters_insert`);
      t = performance.now();
      const run = await runToEnd(database, { kind: 'daily_payout', day, startedBy: null });
      if (run.status !== 'completed') throw new Error(`the run of ${day} ended ${run.status}: ${run.error}`);
      times[mode].push((performance.now() - t) / 1000);
      log(`daily payout ${day} ${mode} the trigger: ${run.paid} paid in ${seconds(t)} s`);
    }
    if (!argv.includes('--plain')) await database.exec('alter table ledger_entries enable trigger tds_quarters_insert');
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    log(`median run: without the trigger ${median(times.without).toFixed(2)} s, with it ${median(times.with).toFixed(2)} s`);
    const fns = await database.query<FunctionStatsRow>(`
      select funcname, calls::int8 as calls, total_time::float8 as total from pg_stat_user_functions order by total_time desc limit 8`);
    const total = times.with.reduce((a, b) => a + b, 0) + times.without.reduce((a, b) => a + b, 0);
    for (const f of fns) log(`  ${f.funcname}: ${Number(f.calls)} calls, ${(Number(f.total) / 1000).toFixed(2)} s in all (of ${total.toFixed(1)} s of runs)`);
  } else await measure();
} finally {
  await database.close();
  if (keep) log(`kept database ${name}`);
  else await admin(`drop database if exists ${name} with (force)`);
}

async function measure() {
  const [rows] = await database.query<TdsLinesRow>(`
    select count(*) filter (where kind = 'tds')::int8 as tds, count(*)::int8 as lines from ledger_entries`);
  log(`ledger: ${Number(rows.lines).toLocaleString('en-IN')} lines, ${Number(rows.tds).toLocaleString('en-IN')} tds lines`);
  if (explain) {
    await database.exec(`load 'auto_explain'`);
    await database.exec(`set auto_explain.log_min_duration = 0; set auto_explain.log_analyze = on; set auto_explain.log_buffers = on; set client_min_messages = log`);
  }

  const ctx = { database } as unknown as Ctx;
  const q = { year: 2026, quarter: 1 };
  const time = async <T>(label: string, work: () => Promise<T>) => {
    const times: number[] = [];
    let out!: T;
    for (let i = 0; i < (explain ? 1 : Number(option('reps') ?? 3)); i++) {
      const s = performance.now();
      out = await work();
      times.push(performance.now() - s);
    }
    log(`${label}: ${times.map((x) => `${x.toFixed(0)} ms`).join(', ')}`);
    return out;
  };
  const first = await time('report page 1 (25 members, with totals)', () => tax.tdsReport(ctx, { ...q, page: 1, limit: 25 }));
  log(`  members ${first.summary.members}, gross ₹${first.summary.gross}, tds ₹${first.summary.tds} (without PAN ₹${first.summary.tdsWithoutPan}), total ${first.total}`);
  const last = Math.max(1, Math.ceil(first.total / 25));
  await time(`report page ${last} (the last)`, () => tax.tdsReport(ctx, { ...q, page: last, limit: 25 }));
  if (!explain) {
    const s = performance.now();
    let cursor = 0;
    let lines = 0;
    const heap = process.memoryUsage().heapUsed;
    let peak = heap;
    for (;;) {
      const batch = await tax.tdsCsvBatch(ctx, q, cursor, 1000);
      lines += batch.rows.length;
      peak = Math.max(peak, process.memoryUsage().heapUsed);
      if (batch.cursor === null) break;
      cursor = batch.cursor;
    }
    log(`CSV of ${quarterDays(2026, 1).from}..${quarterDays(2026, 1).to}: ${lines.toLocaleString('en-IN')} lines in ${seconds(s)} s, heap growth at most ${((peak - heap) / 1e6).toFixed(0)} MB`);
  }
}
