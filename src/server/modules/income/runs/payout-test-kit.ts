import { randomUUID } from 'node:crypto';
import { isoToWireDate } from '../../../../contract/common.ts';
import { DEFAULT_INCOME_SETTINGS, type IncomeSettings } from '../../../../contract/income.ts';
import type { Database } from '../../../db/client.ts';
import { accountWithPermissions } from '../../../test/accounts.ts';
import { bearer, createTestApp, type TestContext } from '../../../test/harness.ts';
import { approveFiled } from '../income-test-kit.ts';
import { newMember } from '../../wallet/money-test-kit.ts';
import { addDays, istToday } from '../settings.ts';
import { runsSettled } from './engine.ts';

/**
 * Builders for the daily payout and engine tests: members and memberships written straight into
 * the database (the activation endpoint is another part's), settings versions for a day, and a
 * run started through the API and waited for (the engine works it in the background).
 */

export async function member(database: Database, o: { active?: boolean; deleted?: boolean; name?: string } = {}) {
  const userId = await newMember(database, o.name ?? 'Payout Member');
  if (o.active === false) await database.query('update users set status = false where user_id = $1', [userId]);
  if (o.deleted) await database.query('update users set deleted_at = now() where user_id = $1', [userId]);
  return userId;
}

export interface MembershipTerms {
  pricePaise?: number;
  dailyPaise: number;
  capPaise: number;
  durationDays: number;
  startsOn: string;
  earnedPaise?: number;
  status?: 'active' | 'completed' | 'legacy';
}

export async function membership(database: Database, userId: number, m: MembershipTerms): Promise<number> {
  const [row] = await database.query<{ id: number }>(
    `insert into memberships (user_id, amount_paise, daily_paise, cap_paise, duration_days, starts_on, earned_paise, status, paid_via)
     values ($1, $2, $3, $4, $5, $6::date, $7, $8, 'wallet') returning id`,
    [userId, m.pricePaise ?? 100_000, m.dailyPaise, m.capPaise, m.durationDays, m.startsOn, m.earnedPaise ?? 0, m.status ?? 'active'],
  );
  return Number(row.id);
}

/**
 * A settings version in force from `day` (the defaults with `changes`). The test members have no
 * PAN: unless a test names the no-PAN rate (issue 25, docs/tax.md), they pay the one TDS rate.
 */
export async function settingsFrom(database: Database, day: string, changes: Partial<IncomeSettings>) {
  const tdsWithoutPanPercent = changes.tdsWithoutPanPercent ?? changes.tdsPercent ?? DEFAULT_INCOME_SETTINGS.tdsPercent;
  await database.query(
    `insert into income_settings_versions (effective_from, settings) values ($1::date, $2::jsonb)
     on conflict (effective_from) do update set settings = excluded.settings`,
    [day, JSON.stringify({ ...DEFAULT_INCOME_SETTINGS, tdsWithoutPanPercent, ...changes })],
  );
}

export async function today(database: Database) {
  return istToday(database.db);
}

export { addDays };

/**
 * A test app for the payout tests: signed in as the admin, today's date from the database, and a
 * settings version from `daysBack` days ago with `changes`.
 */
export async function openPayoutApp(daysBack: number, changes: Partial<IncomeSettings>) {
  const t = await createTestApp();
  const token = await t.login();
  const now = await today(t.database);
  await settingsFrom(t.database, addDays(now, -daysBack), changes);
  return { t, token, now };
}

export const wire = isoToWireDate;

/** POST /income/runs and wait for the background work; answers the start and the finished run. */
const checkers = new WeakMap<TestContext, Record<string, string>>();

/** A second operator with money_approve for the file's server (made once). */
export async function checkerOf(t: TestContext): Promise<Record<string, string>> {
  let checker = checkers.get(t);
  if (!checker) {
    checker = bearer(await accountWithPermissions(t.database, ['money_approve']));
    checkers.set(t, checker);
  }
  return checker;
}

/**
 * Starts the run of `day` and waits for it. A reversed period's re-run is filed (202, issue 22)
 * and approved here by a second operator, then answered as the approval's replay answered (201).
 */
export async function runDay(t: TestContext, token: string, day: string, kind = 'daily_payout') {
  // Each call is a run meant (a re-run of a reversed day within the minute is not a duplicate, issue 22).
  const headers = { ...bearer(token), 'idempotency-key': randomUUID() };
  const filed = await t.app.inject({ method: 'POST', url: '/api/income/runs', headers, payload: { kind, date: wire(day) } });
  const started = filed.statusCode === 202 ? await approveFiled(t, await checkerOf(t), filed, 201) : filed;
  await runsSettled(t.database);
  if (started.statusCode !== 201 && started.statusCode !== 200) return { started, run: null };
  const got = await t.app.inject({ method: 'GET', url: `/api/income/runs/${started.json().data.runId}`, headers: bearer(token) });
  return { started, run: got.json().data };
}

export async function ledgerOf(database: Database, userId: number) {
  const rows = await database.query<{ kind: string; amount: string; run_id: string | null; batch_id: number | null; reversal_of: string | null }>(
    `select kind, amount_paise::text as amount, run_id::text, batch_id, reversal_of::text from ledger_entries where user_id = $1 order by id`,
    [userId],
  );
  return rows.map((r) => ({ kind: r.kind, amount: Number(r.amount), runId: r.run_id === null ? null : Number(r.run_id), batchId: r.batch_id, reversalOf: r.reversal_of }));
}

export async function membershipOf(database: Database, id: number) {
  const [row] = await database.query<{ earned: string; days: number; status: string }>(
    'select earned_paise::text as earned, days_earned as days, status from memberships where id = $1', [id]);
  return { earned: Number(row.earned), days: Number(row.days), status: row.status };
}

export async function payoutsOf(database: Database, userId: number) {
  return database.query<{ id: string; day: string; amount: string; gross: string; tds: string; admin: string; status: string; reason: string | null; run_id: string; ledger_entry_id: string | null }>(
    `select id::text, payout_date::text as day, amount_paise::text as amount, gross_paise::text as gross, tds_paise::text as tds,
            admin_charge_paise::text as admin, status, reason, run_id::text, ledger_entry_id::text
       from daily_payouts where user_id = $1 and status <> 'Reversed' order by payout_date`, [userId]);
}

/** A member's reversed payout rows (issue 24: they stay, marked), with who reversed them and why. */
export async function reversedPayoutsOf(database: Database, userId: number) {
  return database.query<{ day: string; amount: string; status: string; before: string; by: string | null; reason: string | null }>(
    `select payout_date::text as day, amount_paise::text as amount, status, reversed_status as before, reversed_by::text as by,
            reversal_reason as reason
       from daily_payouts where user_id = $1 and status = 'Reversed' order by payout_date, id`, [userId]);
}
