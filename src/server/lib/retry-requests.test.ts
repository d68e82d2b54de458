import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TRANSACTION_TRIES } from '../db/retry.ts';
import { bearer, createTestApp, type TestContext } from '../test/harness.ts';
import { balanceOf, moneyHeaders, newMember } from '../modules/wallet/money-test-kit.ts';
import { moneyInvariantViolations } from './money-invariants.ts';

/**
 * Issue 22, finding 8 through the request path: the next `failures` audit rows written raise
 * 40P01 (deadlock detected), as PostgreSQL does when it rolls a transaction back to break a
 * deadlock (a sequence counts them: it is not rolled back with the transaction). Every change
 * writes its audit row in its own transaction, so the money wrapper (with and without an
 * Idempotency-Key) and a plain service transaction each meet it. A real deadlock between two
 * connections is db/retry.test.ts (PostgreSQL).
 */
let t: TestContext;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  await t.database.exec(`create sequence deadlock_probe; create table deadlock_budget (n int not null); insert into deadlock_budget values (0);`);
  await t.database.exec(`
    create function deadlock_probe() returns trigger language plpgsql as $$
    begin
      if nextval('deadlock_probe') <= (select n from deadlock_budget) then
        raise exception 'deadlock detected' using errcode = '40P01', detail = 'forced by retry-requests.test.ts';
      end if;
      return new;
    end $$;
    create trigger deadlock_probe before insert on audit_log for each row execute function deadlock_probe();`);
});
afterAll(() => t.close());
afterEach(async () => {
  expect(await moneyInvariantViolations(t.database)).toEqual([]);
});

/** The next `n` audit rows fail with 40P01. */
async function deadlocks(n: number) {
  const [{ at }] = await t.database.query<{ at: string }>(`select nextval('deadlock_probe')::text as at`);
  await t.database.query('update deadlock_budget set n = $1', [Number(at) + n]);
}
const recharge = (userId: number, amount: number, headers: Record<string, string>) =>
  t.app.inject({ method: 'POST', url: '/api/wallets/userWalletRecharge', headers, payload: { userId, amount, transactionType: 'wallet_recharge' } });
const ledgerRows = async (userId: number) =>
  (await t.database.query<{ n: number }>('select count(*)::int as n from ledger_entries where user_id = $1', [userId]))[0].n;

describe('a transaction that loses a deadlock is tried again inside the request', () => {
  it('a recharge with an Idempotency-Key: two deadlocks, then 200 — one ledger row, one key, one audit row', async () => {
    const userId = await newMember(t.database);
    await deadlocks(2);
    const res = await recharge(userId, 120, moneyHeaders(token, 'deadlock-retry-key-1'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, data: { userId, amount: 120, balance: 120 } });
    expect(await ledgerRows(userId)).toBe(1);
    expect(await balanceOf(t.database, userId)).toBe(12_000);
    const keys = await t.database.query(`select status_code from idempotency_keys where key = 'deadlock-retry-key-1'`);
    expect(keys).toEqual([{ status_code: 200 }]);
    const audits = await t.database.query(`select id from audit_log where entity = 'ledger_entry' and after->>'userId' = $1`, [String(userId)]);
    expect(audits).toHaveLength(1);
  });

  it('a recharge without a key and a plain service transaction (a new rank): two deadlocks each, then success', async () => {
    const userId = await newMember(t.database);
    await deadlocks(2);
    expect((await recharge(userId, 75, bearer(token))).statusCode).toBe(200);
    expect(await ledgerRows(userId)).toBe(1);
    await deadlocks(2);
    const rank = await t.app.inject({ method: 'POST', url: '/api/ranks/createRank', headers: bearer(token), payload: { name: 'Deadlock Survivor', status: true } });
    expect(rank.statusCode).toBe(201);
    const ranks = await t.database.query(`select rank_id from ranks where name = 'Deadlock Survivor'`);
    expect(ranks).toHaveLength(1);
  });

  it('still deadlocked after the last try: 503 with a plain "send it again", nothing written, never 500', async () => {
    const userId = await newMember(t.database);
    await deadlocks(TRANSACTION_TRIES);
    const res = await recharge(userId, 50, moneyHeaders(token, 'deadlock-retry-key-2'));
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      success: false,
      message: 'The database was busy with other changes to the same records, so nothing was done: send the request again in a moment',
    });
    expect(await ledgerRows(userId)).toBe(0);
    // The same key again, now that the way is clear: it is done once.
    const again = await recharge(userId, 50, moneyHeaders(token, 'deadlock-retry-key-2'));
    expect(again.statusCode).toBe(200);
    expect(await ledgerRows(userId)).toBe(1);
  });
});
