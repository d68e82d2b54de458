import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrate } from 'drizzle-orm/pglite/migrator';
import type { Database } from './client.ts';
import { MIGRATIONS_FOLDER } from './driver.ts';
import type { incomeRuns } from './schema/income.ts';
import type { users as usersTable } from './schema/members.ts';
import type { incomeBatches, ledgerEntries } from './schema/money.ts';

type LedgerId = { id: (typeof ledgerEntries.$inferSelect)['id'] };
type UserId = { id: (typeof usersTable.$inferSelect)['userId'] };
type RunId = { id: (typeof incomeRuns.$inferSelect)['runId'] };
type BatchId = { id: (typeof incomeBatches.$inferSelect)['batchId'] };
/** A broken invariant, said in a sentence. */
type ViolationRow = { what: string };

/**
 * The database as it stood before the books (issue 25), for books-migration.test.ts: the journal
 * migrations up to `lastTag`, and a ledger written by SQL in the shapes the code before issue 25
 * left (git 611be41: db/ledger.ts, income/activation.repository.ts, income/runs/daily-payout.ts,
 * royalty.ts, rewards.ts, reversal.repository.ts, drizzle/functions/recovery.sql).
 */

export const LAST_BEFORE_BOOKS = '0028_staff_are_not_members';

/**
 * Applies the journal migrations up to and including `lastTag` (a copy of drizzle/ whose journal
 * stops there), with drizzle's migrator on `database.db`. PGlite's and node-postgres's migrators
 * are the same code (the dialect's migrate on the session), so this serves both test databases.
 */
export async function migrateUpTo(database: Database, lastTag = LAST_BEFORE_BOOKS): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'books-migration-'));
  try {
    fs.cpSync(MIGRATIONS_FOLDER, dir, { recursive: true });
    const journalFile = path.join(dir, 'meta', '_journal.json');
    const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
    const last = journal.entries.findIndex((e) => e.tag === lastTag);
    if (last < 0) throw new Error(`${lastTag} is not in the journal`);
    journal.entries = journal.entries.slice(0, last + 1);
    fs.writeFileSync(journalFile, JSON.stringify(journal));
    await migrate(database.db as never, { migrationsFolder: dir });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export interface LegacyLine {
  userId: number;
  kind: string;
  amountPaise: number;
  at: string;
  batchId?: number | null;
  description?: string | null;
  actorId?: number | null;
  runId?: number | null;
  reversalOf?: number | null;
}

/** What writeLegacyLedger wrote, for the test's expectations. */
export interface Legacy {
  members: { buyer: number; upline: number; payee: number; other: number; operator: number };
  runs: { royalty: number; reward: number; payout: number };
  batches: { royalty: number; reward: number; payout: number };
  /** Every line, in id order. */
  lines: (LegacyLine & { id: number })[];
  /** The reversed payout run's shortfall (the payee's), what the recovery settled of it before the books, its time. */
  shortfall: { runId: number; userId: number; paise: number; recoveredPaise: number; at: string };
}

/**
 * Writes lines in one INSERT, as the old writers did (their order is the ids' order), and moves
 * each member's balance by their sum, as the writer's UPDATE did. The ledger triggers of the
 * journal migrations (ledger_daily_insert: ledger_daily and ledger_totals; income_months_insert)
 * fire on the INSERT.
 */
async function writeLines(database: Database, lines: LegacyLine[]): Promise<(LegacyLine & { id: number })[]> {
  // The ids drawn first, in order (as the daily payout drew its credits' ids), then one INSERT.
  const ids = (await database.query<LedgerId>(
    `select nextval(pg_get_serial_sequence('ledger_entries', 'id'))::int as id from generate_series(1, $1::int) order by 1`, [lines.length],
  )).map((r) => r.id);
  const rows = await database.query<LedgerId>(`
    insert into ledger_entries (id, user_id, kind, amount_paise, batch_id, description, actor_id, run_id, reversal_of, created_at)
    select id, user_id, kind, amount_paise, batch_id, description, actor_id, run_id, reversal_of, at
      from jsonb_to_recordset($1::jsonb)
        as x(id int8, user_id int8, kind text, amount_paise int8, at timestamptz, batch_id int, description text, actor_id int8, run_id int8, reversal_of int8)
     order by id
    returning id::int as id`,
  [JSON.stringify(lines.map((l, i) => ({
    id: ids[i], user_id: l.userId, kind: l.kind, amount_paise: l.amountPaise, at: l.at, batch_id: l.batchId ?? null,
    description: l.description ?? null, actor_id: l.actorId ?? null, run_id: l.runId ?? null, reversal_of: l.reversalOf ?? null,
  })))]);
  if (rows.length !== lines.length) throw new Error(`wrote ${rows.length} of ${lines.length} legacy lines`);
  const byMember = new Map<number, number>();
  for (const l of lines) byMember.set(l.userId, (byMember.get(l.userId) ?? 0) + l.amountPaise);
  for (const [userId, delta] of [...byMember].sort((a, b) => a[0] - b[0])) {
    await database.query('update users set balance_paise = balance_paise + $2::int8 where user_id = $1::int8', [userId, delta]);
  }
  return lines.map((l, i) => ({ ...l, id: ids[i] }));
}

let users = 0;

/** A users row as insertUser (users.repository.ts) wrote one: name, email, phone, referral code. */
async function newUser(database: Database, name: string, at: string, staff = false): Promise<number> {
  users += 1;
  const [row] = await database.query<UserId>(`
    insert into users (full_name, email, phone, referral_code, can_sign_in, created_at)
    values ($1, lower(replace($1, ' ', '.')) || '@legacy.test', $2, 'LEG' || $2, $3::boolean, $4::timestamptz)
    returning user_id::int as id`, [name, `90000000${String(users).padStart(2, '0')}`, staff, at]);
  return row.id;
}

async function newRun(database: Database, kind: string, day: string, batch: { kind: string; rewardType: string | null }, at: string) {
  const [run] = await database.query<RunId>(`
    insert into income_runs (kind, period_start, period_end, status, started_at)
    values ($1, $2::date, $2::date, 'running', $3::timestamptz) returning run_id::int as id`, [kind, day, at]);
  const [b] = await database.query<BatchId>(`
    insert into income_batches (kind, reward_type, run_date, run_id, created_at)
    values ($1, $2, $3::date, $4::int8, $5::timestamptz) returning batch_id as id`, [batch.kind, batch.rewardType, day, run.id, at]);
  await database.query('update income_runs set batch_id = $2 where run_id = $1::int8', [run.id, b.id]);
  return { runId: run.id, batchId: b.id };
}

/** A run's end, as the engine left it: its totals are what its lines moved. */
async function completeRun(database: Database, runId: number, at: string) {
  await database.query(`
    update income_runs r
       set status = 'completed', finished_at = $2::timestamptz, cursors = '{-1}'::int8[],
           gross_paise = coalesce(l.credits, 0), deductions_paise = coalesce(l.debits, 0), tds_paise = coalesce(l.tds, 0), paid = coalesce(l.members, 0)
      from (select sum(amount_paise) filter (where amount_paise > 0) as credits, -sum(amount_paise) filter (where amount_paise < 0) as debits,
                   -sum(amount_paise) filter (where kind = 'tds') as tds, count(distinct user_id) as members
              from ledger_entries where run_id = $1::int8 and reversal_of is null) l
     where r.run_id = $1::int8`, [runId, at]);
}

/**
 * A small ledger of every kind the code before the books wrote, none naming a transfer: recharges
 * and withdrawals, an activation paid from the wallet and one paid outside it (membership_fee,
 * external_payment, level_income), a royalty and a reward run with their batches, a referral bonus
 * and admin transfers, a daily payout run (daily_payout with its batch, tds, admin_charge) that was
 * then reversed after the payee had withdrawn most of it — compensating lines (reversal_of), a
 * shortfall (run_shortfalls, users.recovery_paise) — and a later credit of the payee whose
 * recovery line settled part of it. One activation falls after 18:30 UTC, the next India day.
 */
export async function writeLegacyLedger(database: Database): Promise<Legacy> {
  const day1 = '2026-03-01';
  const t = (hhmm: string, day = day1) => `${day}T${hhmm}:00Z`;
  const operator = await newUser(database, 'Legacy Operator', t('00:00'), true);
  const upline = await newUser(database, 'Legacy Upline', t('00:10'));
  const buyer = await newUser(database, 'Legacy Buyer', t('00:20'));
  const payee = await newUser(database, 'Legacy Payee', t('00:30'));
  const other = await newUser(database, 'Legacy Other', t('00:40'));
  await database.query('update users set referred_by = $1::int8 where user_id in ($2::int8, $3::int8)', [upline, buyer, payee]);

  const lines: (LegacyLine & { id: number })[] = [];
  const write = async (batch: LegacyLine[]) => {
    const written = await writeLines(database, batch);
    lines.push(...written);
    return written;
  };

  // Wallet: db/ledger.ts postEntry (recharge by an operator, a withdrawal paid outside the system).
  await write([{ userId: buyer, kind: 'wallet_recharge', amountPaise: 500_000, at: t('04:00'), description: 'Wallet recharge', actorId: operator }]);
  await write([{ userId: buyer, kind: 'wallet_withdrawal', amountPaise: -100_000, at: t('06:00'), description: 'Wallet withdrawal', actorId: operator }]);
  // Activations (activation.repository.ts postActivation): one INSERT, fee then level income.
  await write([
    { userId: buyer, kind: 'membership_fee', amountPaise: -200_000, at: t('10:00'), description: 'Membership Gold (version 1)', actorId: operator },
    { userId: upline, kind: 'level_income', amountPaise: 20_000, at: t('10:00'), description: `Level 1 income on the membership of member ${buyer}`, actorId: operator },
  ]);
  await write([
    { userId: payee, kind: 'external_payment', amountPaise: 150_000, at: t('19:00'), description: 'Membership Silver (version 1) paid outside the wallet: UPI, reference L-1', actorId: operator },
    { userId: payee, kind: 'membership_fee', amountPaise: -150_000, at: t('19:00'), description: 'Membership Silver (version 1)', actorId: operator },
    { userId: upline, kind: 'level_income', amountPaise: 15_000, at: t('19:00'), description: `Level 1 income on the membership of member ${payee}`, actorId: operator },
  ]);

  // Royalty and reward runs (royalty.ts, rewards.ts): credits with the run and its batch.
  const royalty = await newRun(database, 'royalty', '2026-03-02', { kind: 'royalty', rewardType: null }, t('02:00', '2026-03-02'));
  await write([
    { userId: upline, kind: 'royalty', amountPaise: 30_000, at: t('02:01', '2026-03-02'), batchId: royalty.batchId, runId: royalty.runId, description: 'Royalty for March 2026' },
    { userId: other, kind: 'royalty', amountPaise: 20_000, at: t('02:01', '2026-03-02'), batchId: royalty.batchId, runId: royalty.runId, description: 'Royalty for March 2026' },
  ]);
  await completeRun(database, royalty.runId, t('02:02', '2026-03-02'));
  const reward = await newRun(database, 'monthly_reward', '2026-03-02', { kind: 'reward', rewardType: 'monthlyReward' }, t('03:00', '2026-03-02'));
  await write([
    { userId: other, kind: 'reward', amountPaise: 10_000, at: t('03:01', '2026-03-02'), batchId: reward.batchId, runId: reward.runId, description: 'Monthly reward' },
  ]);
  await completeRun(database, reward.runId, t('03:02', '2026-03-02'));
  // A referral bonus from before the engine (no run), and an operator's admin transfer.
  await write([{ userId: other, kind: 'referral_bonus', amountPaise: 5_000, at: t('04:00', '2026-03-02'), description: 'Referral bonus' }]);
  await write([{ userId: payee, kind: 'admin_transfer', amountPaise: 25_000, at: t('05:00', '2026-03-02'), description: 'Transfer by administrator', actorId: operator }]);

  // The daily payout run (daily-payout.ts step): one INSERT per chunk, the credit with the batch,
  // the deductions without; then the payee withdraws most of what they hold.
  const payout = await newRun(database, 'daily_payout', '2026-03-03', { kind: 'reward', rewardType: 'dailyPayout' }, t('06:00', '2026-03-03'));
  const paid = (userId: number, gross: number, tds: number, admin: number) => [
    { userId, kind: 'daily_payout', amountPaise: gross, at: t('06:01', '2026-03-03'), batchId: payout.batchId, runId: payout.runId, description: 'Daily payout for 2026-03-03' },
    { userId, kind: 'tds', amountPaise: -tds, at: t('06:01', '2026-03-03'), runId: payout.runId, description: 'TDS on daily payout for 2026-03-03' },
    { userId, kind: 'admin_charge', amountPaise: -admin, at: t('06:01', '2026-03-03'), runId: payout.runId, description: 'Admin charge on daily payout for 2026-03-03' },
  ];
  const runLines = await write([...paid(payee, 40_000, 2_000, 4_000), ...paid(other, 30_000, 1_500, 3_000)]);
  await completeRun(database, payout.runId, t('06:02', '2026-03-03'));
  await write([{ userId: payee, kind: 'wallet_withdrawal', amountPaise: -50_000, at: t('09:00', '2026-03-03'), description: 'Wallet withdrawal', actorId: operator }]);

  // Its reversal (reversal.repository.ts compensate), by the rule of the code before the books:
  // per member, debits given back in full, credits taken back in id order as far as balance +
  // debits covers. The payee holds 9,000 paise with 6,000 of debits: 15,000 of the 40,000 credit
  // comes back, 25,000 is the shortfall they owe. The other member covers theirs in full.
  const reversedAt = t('12:00', '2026-03-03');
  const back = new Map<number, number>([[runLines[0].id, -15_000], [runLines[3].id, -30_000]]);
  await write(runLines.map((l) => ({
    userId: l.userId, kind: l.kind, amountPaise: back.get(l.id) ?? -l.amountPaise, at: reversedAt, batchId: l.batchId ?? null,
    description: `Reversal of run ${payout.runId}`, actorId: operator, runId: payout.runId, reversalOf: l.id,
  })));
  const shortfall = { runId: payout.runId, userId: payee, paise: 25_000, recoveredPaise: 10_000, at: reversedAt };
  await database.query('update users set recovery_paise = recovery_paise + $2::int8 where user_id = $1::int8', [payee, shortfall.paise]);
  await database.query('insert into run_shortfalls (run_id, user_id, shortfall_paise, created_at) values ($1::int8, $2::int8, $3::int8, $4::timestamptz)',
    [payout.runId, payee, shortfall.paise, reversedAt]);
  await database.query(`
    update income_runs set status = 'reversed', reversed_by = $2::int8, reversed_at = $3::timestamptz, shortfall_paise = $4::int8,
                           state = state || jsonb_build_object('reversal', jsonb_build_object('remarks', 'Wrong day', 'shortfallPaise', $4::int8))
     where run_id = $1::int8`, [payout.runId, operator, reversedAt, shortfall.paise]);

  // A later credit of the payee settles 10,000 of the shortfall (drizzle/functions/recovery.sql
  // as it was: a recovery line of its own, no run, no batch; recovered_paise up, the balance and
  // recovery_paise down, in the credit's transaction).
  await write([{ userId: payee, kind: 'admin_transfer', amountPaise: 10_000, at: t('05:00', '2026-03-04'), description: 'Transfer by administrator', actorId: operator }]);
  await write([{ userId: payee, kind: 'recovery', amountPaise: -10_000, at: t('05:00', '2026-03-04'), description: `Recovery of the shortfall of reversed run ${payout.runId}` }]);
  await database.query('update run_shortfalls set recovered_paise = recovered_paise + 10000 where run_id = $1::int8 and user_id = $2::int8', [payout.runId, payee]);
  await database.query('update users set recovery_paise = recovery_paise - 10000 where user_id = $1::int8', [payee]);

  return {
    members: { buyer, upline, payee, other, operator },
    runs: { royalty: royalty.runId, reward: reward.runId, payout: payout.runId },
    batches: { royalty: royalty.batchId, reward: reward.batchId, payout: payout.batchId },
    lines,
    shortfall,
  };
}

/**
 * The money invariants of the code before the books (money-invariants.ts at 611be41, without the
 * books): each balance is its ledger's sum and not negative, ledger_daily and ledger_totals match
 * the ledger, recovery owed is the open shortfall and the recovery lines what was recovered, and
 * each run's own lines are its gross and deductions. The legacy state must hold them, or the test
 * would prove nothing.
 */
export async function legacyViolations(database: Database): Promise<string[]> {
  const rows = await database.query<ViolationRow>(`
    select 'member ' || u.user_id || ': balance ' || u.balance_paise || ', ledger ' || coalesce(s.total, 0) as what
      from users u left join (select user_id, sum(amount_paise) as total from ledger_entries group by user_id) s on s.user_id = u.user_id
     where u.balance_paise <> coalesce(s.total, 0) or u.balance_paise < 0
    union all
    select 'kind ' || coalesce(l.kind, d.kind) || ': ledger_daily differs'
      from (select kind, (created_at at time zone 'Asia/Kolkata')::date as day, sum(amount_paise) as total from ledger_entries group by 1, 2) l
      full join (select kind, day, sum(total_paise) as total from ledger_daily group by 1, 2) d on d.kind = l.kind and d.day = l.day
     where coalesce(l.total, 0) <> coalesce(d.total, 0)
    union all
    select 'kind ' || coalesce(l.kind, t.kind) || ': ledger_totals differs'
      from (select kind, sum(amount_paise) as total, count(*) as n from ledger_entries group by 1) l
      full join (select kind, sum(total_paise) as total, sum(entries) as n from ledger_totals group by 1) t on t.kind = l.kind
     where coalesce(l.total, 0) <> coalesce(t.total, 0) or coalesce(l.n, 0) <> coalesce(t.n, 0)
    union all
    select 'member ' || u.user_id || ': recovery owed ' || u.recovery_paise || ' differs from the open shortfalls or the recovery lines'
      from users u
      left join (select user_id, sum(shortfall_paise - recovered_paise) as open, sum(recovered_paise) as recovered from run_shortfalls group by 1) s on s.user_id = u.user_id
      left join (select user_id, sum(amount_paise) as total from ledger_entries where kind = 'recovery' group by 1) l on l.user_id = u.user_id
     where u.recovery_paise <> coalesce(s.open, 0) or coalesce(s.recovered, 0) <> coalesce(-l.total, 0)
    union all
    select 'run ' || r.run_id || ': gross or deductions differ from its lines'
      from income_runs r
      left join (select run_id, sum(amount_paise) filter (where amount_paise > 0) as credits, -sum(amount_paise) filter (where amount_paise < 0) as debits
                   from ledger_entries where run_id is not null and reversal_of is null and kind <> 'recovery' group by 1) l on l.run_id = r.run_id
     where coalesce(l.credits, 0) <> r.gross_paise or coalesce(l.debits, 0) <> r.deductions_paise`);
  return rows.map((r) => r.what);
}
