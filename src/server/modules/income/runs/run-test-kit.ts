import { sql } from 'drizzle-orm';
import { DEFAULT_INCOME_SETTINGS, type IncomeSettings } from '../../../../contract/income.ts';
import { rowsOf, type Database } from '../../../db/client.ts';
import { postEntry } from '../../../db/books.ts';
import { NO_TALLY, type RunKindHandler, type RunPeriod, type RunScope, type Tally } from './kind.ts';

/**
 * A tiny driver for the royalty, reward and rank-promotion kinds' tests, standing in for the
 * engine: an income_runs row, `begin`, the income batch it asks for, then `step` until done, each
 * chunk its own transaction that also moves the run row's cursor and totals. Plus a few builders
 * of members, trees of direct referrals, ranks and memberships written straight into the database.
 * The file's server comes from incomeSuite (../income-test-kit.ts).
 */

export interface DrivenRun {
  runId: number;
  batchId: number | null;
  state: Record<string, unknown>;
  total: number;
  tally: Tally;
  chunks: number;
}

export async function driveRun(
  database: Database, handler: RunKindHandler, period: RunPeriod,
  options: { settings?: Partial<IncomeSettings>; limit?: number } = {},
): Promise<DrivenRun> {
  const settings = { ...DEFAULT_INCOME_SETTINGS, ...options.settings };
  const limit = options.limit ?? 3;
  // Exactly-once is the engine's (not tested here): a test that runs a period again frees it first.
  await database.query(`update income_runs set status = 'reversed' where kind = $1 and period_start = $2::date and status <> 'reversed'`,
    [handler.kind, period.start]);
  const [{ run_id: runId }] = await database.query<{ run_id: number }>(
    `insert into income_runs (kind, period_start, period_end, settings) values ($1, $2::date, $3::date, $4::jsonb) returning run_id`,
    [handler.kind, period.start, period.end, JSON.stringify(settings)]);
  const base = { runId: Number(runId), kind: handler.kind, period, settings, settingsVersionId: null };
  const scope: RunScope = await database.db.transaction(async (tx) => {
    const begun = await handler.begin(tx, base);
    let batchId: number | null = null;
    if (begun.batch) {
      const [batch] = rowsOf<{ batch_id: number }>(await tx.execute(sql`
        insert into income_batches (kind, reward_type, run_date, run_id)
        values (${begun.batch.kind}, ${begun.batch.rewardType}, ${begun.batch.runDate}::date, ${base.runId}::int8) returning batch_id`));
      batchId = Number(batch.batch_id);
    }
    await tx.execute(sql`update income_runs set state = ${JSON.stringify(begun.state)}::jsonb, total = ${begun.total}::int8,
      batch_id = ${batchId}::int where run_id = ${base.runId}::int8`);
    return { ...base, state: begun.state, batchId };
  });
  // The state as stored and read back, as the engine hands it to every chunk.
  const [stored] = await database.query<{ state: unknown; total: number }>('select state, total from income_runs where run_id = $1', [scope.runId]);
  scope.state = (typeof stored.state === 'string' ? JSON.parse(stored.state) : stored.state) as Record<string, unknown>;
  const tally: Tally = { ...NO_TALLY };
  let cursor = 0;
  let chunks = 0;
  for (;;) {
    const result = await database.db.transaction(async (tx) => {
      const r = await handler.step(tx, scope, cursor, limit);
      await tx.execute(sql`update income_runs set cursors = array[${r.cursor}::int8], done = done + ${r.units}::int8,
        paid = paid + ${r.paid}::int8, gross_paise = gross_paise + ${r.grossPaise}::int8 where run_id = ${scope.runId}::int8`);
      return r;
    });
    chunks += 1;
    for (const key of Object.keys(tally) as (keyof Tally)[]) tally[key] = (tally[key] ?? 0) + (result[key] ?? 0);
    cursor = result.cursor;
    if (result.done) break;
    if (chunks > 10_000) throw new Error('the run never finished');
  }
  await database.query(`update income_runs set status = 'completed', finished_at = now() where run_id = $1`, [scope.runId]);
  return { runId: scope.runId, batchId: scope.batchId, state: scope.state, total: Number(stored.total), tally, chunks };
}

export async function previewRun(
  database: Database, handler: RunKindHandler, period: RunPeriod, settings: Partial<IncomeSettings> = {},
): Promise<Tally> {
  return handler.preview(database.db, {
    kind: handler.kind, period, settings: { ...DEFAULT_INCOME_SETTINGS, ...settings }, settingsVersionId: null, state: {},
  });
}

let serial = 0;

/** A member written straight into users (live, status true unless told). */
export async function addMember(
  database: Database,
  o: { referredBy?: number | null; rankId?: number | null; status?: boolean; deleted?: boolean; createdAt?: string } = {},
): Promise<number> {
  serial += 1;
  const stamp = `${process.pid}${Date.now() % 1_000_000}${serial}`;
  const [row] = await database.query<{ user_id: number }>(
    `insert into users (full_name, email, phone, referral_code, referred_by, rank_id, status, deleted_at, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, case when $8 then now() end, coalesce($9::timestamptz, now())) returning user_id`,
    [`Member ${stamp}`, `m${stamp}@runs.test`, `9${stamp.slice(-9)}`, `RUN${stamp}`, o.referredBy ?? null, o.rankId ?? null,
      o.status ?? true, o.deleted ?? false, o.createdAt ?? null]);
  return Number(row.user_id);
}

/**
 * A membership paid outside (external_payment in, membership_fee out: revenue) with the given
 * status, its fee on today's ledger_daily row.
 */
export async function addMembership(
  database: Database, userId: number, pricePaise: number, status: 'active' | 'completed' | 'legacy' = 'active',
): Promise<void> {
  await database.db.transaction(async (tx) => {
    await postEntry(tx, { userId, kind: 'external_payment', amountPaise: pricePaise, description: 'Paid outside (test)' });
    await postEntry(tx, { userId, kind: 'membership_fee', amountPaise: -pricePaise, description: 'Membership (test)' });
  });
  await database.query(
    `insert into memberships (user_id, amount_paise, daily_paise, cap_paise, duration_days, starts_on, status, paid_via)
     values ($1, $2, 100, $3, 30, (now() at time zone 'Asia/Kolkata')::date + 1, $4, 'outside')`,
    [userId, pricePaise, pricePaise * 2, status]);
}

/**
 * `n` direct referrals of `upline`, each with a membership of `pricePaise` (1 rupee unless told;
 * `membership: null` for none) and `below` members under each; the directs' ids in order.
 */
export async function addDirects(
  database: Database, upline: number, n: number,
  o: { status?: boolean; deleted?: boolean; membership?: 'active' | 'completed' | null; pricePaise?: number; below?: number } = {},
): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const id = await addMember(database, { referredBy: upline, status: o.status });
    if (o.membership !== null) await addMembership(database, id, o.pricePaise ?? 100, o.membership ?? 'active');
    if (o.deleted) await database.query('update users set deleted_at = now() where user_id = $1', [id]);
    for (let j = 0; j < (o.below ?? 0); j += 1) await addMember(database, { referredBy: id });
    ids.push(id);
  }
  return ids;
}

/** Turns every shipped rank off, then adds the test's ranks; returns their ids in order. */
export async function replaceRanks(
  database: Database,
  ranks: { position: number; weight?: number; minDirect?: number; minTeam?: number; minBusinessPaise?: number; monthlyRewardPaise?: number; status?: boolean }[],
): Promise<number[]> {
  await database.query('update ranks set status = false');
  const ids: number[] = [];
  for (const r of ranks) {
    serial += 1;
    const [row] = await database.query<{ rank_id: number }>(
      `insert into ranks (name, status, position, royalty_weight, min_direct, min_team, min_business_paise, monthly_reward_paise)
       values ($1, $2, $3, $4, $5, $6, $7, $8) returning rank_id`,
      [`Test rank ${serial}`, r.status ?? true, r.position, r.weight ?? 0, r.minDirect ?? 0, r.minTeam ?? 0, r.minBusinessPaise ?? 0,
        r.monthlyRewardPaise ?? 0]);
    ids.push(Number(row.rank_id));
  }
  return ids;
}

/** Each member's credits of a run's ledger rows, by kind. */
export async function creditsOf(database: Database, runId: number): Promise<Map<number, number>> {
  const rows = await database.query<{ user_id: number; paise: number }>(
    'select user_id, sum(amount_paise)::int8 as paise from ledger_entries where run_id = $1 group by user_id', [runId]);
  return new Map(rows.map((r) => [Number(r.user_id), Number(r.paise)]));
}
