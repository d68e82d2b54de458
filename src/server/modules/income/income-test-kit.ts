import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { isoToWireDate } from '../../../contract/common.ts';
import { DEFAULT_INCOME_SETTINGS, type IncomeSettings } from '../../../contract/income.ts';
import type { Config } from '../../config.ts';
import { moneyInvariantViolations } from '../../lib/money-invariants.ts';
import { accountWithPermissions } from '../../test/accounts.ts';
import { bearer, caller, createTestApp, plainAccount, type TestContext } from '../../test/harness.ts';
import { fourEyesSuite, type Operator } from '../approvals/four-eyes-test-kit.ts';
import { insertUser } from '../users/users.repository.ts';
import { istToday } from './settings.ts';

/**
 * The income engine tests' shared set-up (issue 16): one server per test file, the India-time
 * business day it began on, signed-in callers for the endpoint tests, and the builders the
 * activation tests share (members, upline chains, plans, settings). The run kinds' driver and
 * their builders stay in runs/run-test-kit.ts, the daily payout's in runs/payout-test-kit.ts.
 */

export interface IncomeSuite {
  t: TestContext;
  /** The India-time business day when the file began, yyyy-mm-dd. */
  today: string;
  /** Headers of the admin (with `signIn`), a member with membership_view only, and an account with no permission. */
  admin: Record<string, string>;
  viewer: Record<string, string>;
  noPermission: Record<string, string>;
  /** A second operator with money_approve: approves what the admin files (issue 22). */
  checker: Record<string, string>;
}

/** An answer as a test reads it: its status and its JSON. */
export interface Answer {
  statusCode: number;
  body: string;
  json(): any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/**
 * One server for the file. `moneyInvariants` checks the ledger against the balances after every
 * test (the run kinds' files); `signIn` makes the admin, viewer and no-permission callers (the
 * plans' and settings' files). `call` is an inject call as the admin unless told other headers.
 */
export function incomeSuite(options: { moneyInvariants?: boolean; signIn?: boolean } = {}) {
  const ctx = {} as IncomeSuite;
  beforeAll(async () => {
    ctx.t = await createTestApp();
    ctx.today = await istToday(ctx.t.database.db);
    if (options.signIn) {
      ctx.admin = bearer(await ctx.t.login());
      ctx.noPermission = await plainAccount(ctx.t);
      ctx.viewer = bearer(await accountWithPermissions(ctx.t.database, ['membership_view']));
      ctx.checker = bearer(await accountWithPermissions(ctx.t.database, ['money_approve']));
    }
  });
  afterAll(() => ctx.t.close());
  if (options.moneyInvariants) {
    afterEach(async () => {
      expect(await moneyInvariantViolations(ctx.t.database)).toEqual([]);
    });
  }
  const call: ReturnType<typeof caller> = (method, url, payload, headers) => caller(ctx.t, ctx.admin)(method, url, payload, headers);
  /**
   * A compensation change as the admin files it and a second operator approves it (issue 22): a
   * refusal at filing is answered as it is; a filed change (202) is approved by the checker and
   * answered as the movement answered on approval (its status, message and data), as the direct
   * path answered before four eyes.
   */
  async function viaApproval(method: 'POST' | 'PUT', url: string, payload: object, headers?: Record<string, string>): Promise<Answer> {
    return approveFiled(ctx.t, ctx.checker, await call(method, url, payload, headers), method === 'POST' ? 201 : 200);
  }

  return { ctx, call, viaApproval, db: () => ctx.t.database };
}

/**
 * A filed change (202) approved by `checker`, answered as the movement answered on approval (its
 * message and data, with `status`); any other answer as it is (issue 22).
 */
export async function approveFiled(t: TestContext, checker: Record<string, string>, filed: Answer, status: number): Promise<Answer> {
  if (filed.statusCode !== 202) return filed;
  const approvalId = filed.json().data.approvalId as number;
  const approved = await t.app.inject({ method: 'POST', url: `/api/approvals/${approvalId}/approve`, headers: checker });
  if (approved.statusCode !== 200) return approved;
  const { message, data } = approved.json() as { message: string; data: { result: unknown } };
  const answer = { success: true, message: message.replace(/^Request approved: /, ''), data: data.result };
  return { statusCode: status, body: JSON.stringify(answer), json: () => answer };
}

const TODAY = `(now() at time zone 'Asia/Kolkata')::date`;

/** How an upline of `chain` is made. */
export type Upline = 'active' | 'inactive' | 'no-membership' | 'completed' | 'deleted';

// Default level income: 10, 5, 3, 2, 1, 1, 0.5, 0.5, 0.5, 0.5 % (bp 1000, 500, 300, 200, 100, 100, 50 ×4).
export const BP = [1000, 500, 300, 200, 100, 100, 50, 50, 50, 50];
export const share = (price: number, bp: number) => Math.floor((price * bp) / 10_000);

/**
 * The activation tests' set-up: the four-eyes suite (₹50,000 daily credit limit, the money
 * invariants after each test) with members made through the users repository, plans and settings
 * versions in force today written straight into their tables, and POST /income/memberships.
 */
export function activationSuite(config: Partial<Config> = {}) {
  const suite = fourEyesSuite(5_000_000, config);
  const db = () => suite.ctx.t.database;

  async function today(): Promise<string> {
    const [row] = await db().query<{ d: string }>(`select ${TODAY}::text as d`);
    return row.d;
  }

  let serial = 0;
  async function member(referredBy: number | null = null, fullName = 'Member'): Promise<number> {
    serial += 1;
    const stamp = `${Date.now()}${serial}`.slice(-9);
    const user = await insertUser(db().db, { fullName: `${fullName} ${serial}`, email: `act${stamp}@test.local`, phone: `8${stamp}`, level: 1, referredBy });
    return user.userId;
  }

  /** A plan whose first version is in force today; `later` schedules a second version from tomorrow. */
  async function plan(pricePaise: number, options: { active?: boolean; later?: number; daily?: ['percent' | 'fixed', number]; cap?: number } = {}) {
    serial += 1;
    const [p] = await db().query<{ plan_id: number }>('insert into membership_plans (name) values ($1) returning plan_id', [`Plan ${serial}`]);
    const [mode, value] = options.daily ?? ['percent', 150];
    const [v] = await db().query<{ version_id: number }>(
      `insert into membership_plan_versions (plan_id, effective_from, price_paise, daily_mode, daily_value, duration_days, cap_paise, active)
       values ($1, ${TODAY}, $2, $3, $4, 200, $5, $6) returning version_id`,
      [p.plan_id, pricePaise, mode, value, options.cap ?? pricePaise * 2, options.active ?? true]);
    if (options.later) {
      await db().query(
        `insert into membership_plan_versions (plan_id, effective_from, price_paise, daily_mode, daily_value, duration_days, cap_paise)
         values ($1, ${TODAY} + 1, $2, 'fixed', 100, 10, $2)`, [p.plan_id, options.later]);
    }
    return { planId: Number(p.plan_id), versionId: Number(v.version_id), name: `Plan ${serial}` };
  }

  /** A plan whose only version starts `days` from today: not on sale yet. */
  async function futurePlan(days: number): Promise<number> {
    const [{ plan_id: future }] = await db().query<{ plan_id: number }>(`insert into membership_plans (name) values ('Future plan') returning plan_id`);
    await db().query(
      `insert into membership_plan_versions (plan_id, effective_from, price_paise, daily_mode, daily_value, duration_days, cap_paise)
       values ($1, ${TODAY} + ${days}, 100, 'fixed', 1, 1, 100)`, [future]);
    return Number(future);
  }

  /** The settings in force from today (replaced by the next call). */
  async function settings(change: Partial<IncomeSettings>) {
    await db().query(
      `insert into income_settings_versions (effective_from, settings) values (${TODAY}, $1::jsonb)
       on conflict (effective_from) do update set settings = excluded.settings`,
      [JSON.stringify({ ...DEFAULT_INCOME_SETTINGS, ...change })]);
  }

  /** An engine membership straight in the table: 'active' makes its holder an active upline. */
  async function holds(userId: number, status: 'active' | 'completed' | 'legacy' = 'active') {
    await db().query(
      `insert into memberships (user_id, amount_paise, status, cap_paise, daily_paise, duration_days, starts_on)
       values ($1, 100000, $2, 200000, 1000, 100, ${TODAY})`, [userId, status]);
  }

  /**
   * A chain of uplines, nearest first (index 0 = the direct referrer, level 1), and the member
   * at its bottom; each upline is made as `kinds` says.
   */
  async function chain(kinds: Upline[]) {
    const ids: number[] = [];
    let above: number | null = null;
    for (const kind of [...kinds].reverse()) {
      const id: number = await member(above, 'Upline');
      if (kind === 'active' || kind === 'inactive' || kind === 'deleted') await holds(id);
      if (kind === 'completed') await holds(id, 'completed');
      if (kind === 'inactive') await db().query('update users set status = false where user_id = $1', [id]);
      if (kind === 'deleted') await db().query('update users set deleted_at = now() where user_id = $1', [id]);
      ids.unshift(id);
      above = id;
    }
    const bottom = await member(above, 'Buyer');
    return { uplines: ids, bottom };
  }

  async function levelIncomeOf(userIds: number[]) {
    const rows = await db().query<{ user_id: number; amount_paise: number; n: number }>(
      `select user_id, sum(amount_paise)::int8 as amount_paise, count(*)::int as n from ledger_entries
        where kind = 'level_income' and user_id = any($1::int8[]) group by user_id`, [userIds]);
    return userIds.map((id) => Number(rows.find((r) => Number(r.user_id) === id)?.amount_paise ?? 0));
  }

  async function ledgerOf(userId: number) {
    return db().query<{ kind: string; amount_paise: string; actor_id: string | null; description: string }>(
      'select kind, amount_paise::text, actor_id::text, description from ledger_entries where user_id = $1 order by id', [userId]);
  }

  async function membershipRow(userId: number) {
    const [row] = await db().query<Record<string, unknown>>(
      `select plan_id, plan_version_id, amount_paise::int8 as amount_paise, daily_paise::int8 as daily_paise, cap_paise::int8 as cap_paise,
              duration_days, starts_on::text as starts_on, status, paid_via, payment_method, payment_reference,
              activated_by::int8 as activated_by, approved_by::int8 as approved_by
         from memberships where user_id = $1`, [userId]);
    return row;
  }

  const activate = (who: Operator, body: Record<string, unknown>, key?: string) => suite.post(who, '/income/memberships', body, key);

  return {
    ...suite, db, today, wire: isoToWireDate, member, plan, futurePlan, settings, chain, levelIncomeOf, ledgerOf, membershipRow, activate,
  };
}
