import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ensureReferenceData } from '../src/server/db/bootstrap.ts';
import { openPglite, openPostgres, type Database } from '../src/server/db/client.ts';
import { moneyInvariantViolations } from '../src/server/lib/money-invariants.ts';
import { previewRun, reverseRun, runToEnd } from '../src/server/modules/income/runs/engine.ts';
import { istToday } from '../src/server/modules/income/settings.ts';

// npm run bench:income [-- --members N] [-- --keep]
// The income engine's runs at scale (issue 16): seeds N members each holding an active membership
// (set-based), then times the daily payout run (preview, run, reversal) and checks the money
// invariants. PostgreSQL when BENCH_DATABASE_URL names a server (a fresh database is created on it
// and dropped after, unless --keep), else PGlite in a temporary directory.
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
      insert into users (full_name, email, phone, referral_code, status)
      select 'Bench Member ' || g, 'bench' || g || '@income.bench', (7000000000 + g)::text, 'BENCH' || g, g % 50 <> 0
        from generate_series(${from}, ${to}) g`);
  }
  // Every member holds an active membership: ₹1,000 at 1 % a day (₹10), a cap of ₹2,000, 200 days,
  // earning from 10 days back; every 7th is 5 paise under its cap (its last payment is the rest).
  await database.exec(`
    insert into memberships (user_id, amount_paise, daily_paise, cap_paise, duration_days, starts_on, earned_paise, days_earned, status, paid_via)
    select user_id, 100000, 1000, 200000, 200, date '${day}' - 10, case when user_id % 7 = 0 then 199995 else 9000 end, 9, 'active', 'wallet'
      from users where email like 'bench%@income.bench'`);
  await database.exec('vacuum (analyze)');
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
  log(`RESULT ${database.kind} daily payout of ${members.toLocaleString('en-IN')} memberships: ${runSeconds.toFixed(1)} s (target ≤ 60 s)`);
  if (violations.length > 0) process.exitCode = 1;
} finally {
  await database.close();
  await drop();
}
