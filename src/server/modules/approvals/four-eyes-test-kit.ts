import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Config } from '../../config.ts';
import { postEntry } from '../../db/books.ts';
import { moneyInvariantViolations } from '../../lib/money-invariants.ts';
import { hashToken } from '../../lib/tokens.ts';
import { accountWithPermissions } from '../../test/accounts.ts';
import { bearer, createTestApp, type TestContext } from '../../test/harness.ts';
import { moneyHeaders } from '../wallet/money-test-kit.ts';

export interface Operator {
  token: string;
  userId: number;
  name: string;
}

/**
 * The four-eyes tests' set-up (issue 13, finding 6 and "Four eyes on money"): one server per test
 * file with the default ₹10,000 threshold and a daily credit limit low enough to reach in a few
 * requests; the money invariants are checked after every test. Every operator is a fresh account,
 * so no test spends another's daily limit.
 */
export function fourEyesSuite(dailyCreditLimitPaise: number, config: Partial<Config> = {}) {
  const ctx = {} as { t: TestContext };
  beforeAll(async () => {
    ctx.t = await createTestApp({ config: { dailyCreditLimitPaise, ...config } });
  });
  afterAll(() => ctx.t.close());
  afterEach(async () => {
    expect(await moneyInvariantViolations(ctx.t.database)).toEqual([]);
  });

  async function operator(...permissions: string[]): Promise<Operator> {
    const token = await accountWithPermissions(ctx.t.database, permissions);
    const [row] = await ctx.t.database.query<{ user_id: string; full_name: string }>(
      'select u.user_id::text, u.full_name from sessions s join users u on u.user_id = s.user_id where s.token_hash = $1', [hashToken(token)]);
    return { token, userId: Number(row.user_id), name: row.full_name };
  }

  /** Money on a member's wallet without any operator: a ledger row and its balance, as the engine posts them. */
  async function fund(userId: number, rupees: number) {
    await postEntry(ctx.t.database.db, { userId, kind: 'reward', amountPaise: Math.round(rupees * 100), description: 'test funds' });
  }

  async function failedPayout(userId: number, amountPaise: number) {
    const [row] = await ctx.t.database.query<{ id: string }>(
      `insert into daily_payouts (user_id, payout_date, amount_paise, status) values ($1, date '2021-03-01', $2, 'Failure') returning id::text`,
      [userId, amountPaise]);
    return Number(row.id);
  }

  const post = (who: Operator, url: string, payload: Record<string, unknown>, key?: string) =>
    ctx.t.app.inject({ method: 'POST', url: `/api${url}`, headers: moneyHeaders(who.token, key), payload });
  const put = (who: Operator, url: string, payload: Record<string, unknown>) =>
    ctx.t.app.inject({ method: 'PUT', url: `/api${url}`, headers: moneyHeaders(who.token), payload });
  const get = (who: Operator, url: string) => ctx.t.app.inject({ method: 'GET', url: `/api${url}`, headers: bearer(who.token) });
  const recharge = (who: Operator, userId: number, amount: number, transactionType = 'wallet_recharge', key?: string) =>
    post(who, '/wallets/userWalletRecharge', { userId, amount, transactionType }, key);
  const approve = (who: Operator, id: number, key?: string) =>
    ctx.t.app.inject({ method: 'POST', url: `/api/approvals/${id}/approve`, headers: moneyHeaders(who.token, key) });


  async function ledgerRows(userId: number) {
    return ctx.t.database.query<{ kind: string; amount_paise: string; actor_id: string | null }>(
      'select kind, amount_paise::text, actor_id::text from ledger_entries where user_id = $1 order by id', [userId]);
  }

  async function moneyRequest(id: number) {
    const [row] = await ctx.t.database.query<{ kind: string; user_id: string; amount_paise: string; payload: unknown; status: string; maker_id: string; checker_id: string | null }>(
      'select kind, user_id::text, amount_paise::text, payload, status, maker_id::text, checker_id::text from money_requests where id = $1', [id]);
    return row;
  }

  return { ctx, operator, fund, failedPayout, post, put, get, recharge, approve, ledgerRows, moneyRequest };
}

export const AWAITS = 'Above the approval threshold of ₹10,000.00: this request awaits approval by a second operator';
export const OWN_WALLET = 'You cannot move money into or out of your own wallet: another operator must do it';
