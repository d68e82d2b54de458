import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPTURED_QUERIES_HEADER, decodeCapturedQueries } from '../db/query-timing.ts';
import { moneyHeaders, newMember } from '../modules/wallet/money-test-kit.ts';
import { createTestApp, testDbKind, type TestContext } from './harness.ts';

// A money movement's round trips to PostgreSQL are most of its cost (bench/results.md: a wallet
// recharge is CPU-bound, ≈ 150 µs of server and database per statement). The shape every
// movement shares: BEGIN, the idempotency claim, the member found and the (maker, member, day)
// reservation in one statement, the posting, the audit row with the key's answer and the maker's
// daily count in one statement, COMMIT. PGlite's transactions do not go through the captured
// query path, so this is measured on PostgreSQL.
let t: TestContext;
let token: string;
beforeAll(async () => {
  t = await createTestApp({ config: { captureQueries: true } });
  token = await t.login();
});
afterAll(() => t.close());

async function statementsOf(url: string, payload: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'POST', url, headers: { ...moneyHeaders(token), 'x-capture-queries': '1' }, payload });
  expect(res.statusCode, res.body).toBe(200);
  return decodeCapturedQueries(String(res.headers[CAPTURED_QUERIES_HEADER])).map((q) => q.text.replace(/\s+/g, ' ').trim());
}

describe.skipIf(testDbKind !== 'postgres')('a money movement’s round trips', () => {
  it('a wallet recharge and a withdrawal are six: begin, claim, member + reservation, posting, audit + answer + daily count, commit', async () => {
    const userId = await newMember(t.database);
    // The first request of a session reads it once (then it is cached until a change is announced).
    await statementsOf('/api/wallets/userWalletRecharge', { userId, amount: 10, transactionType: 'wallet_recharge' });
    for (const transactionType of ['wallet_recharge', 'wallet_withdrawal']) {
      const statements = await statementsOf('/api/wallets/userWalletRecharge', { userId, amount: 5, transactionType });
      expect(statements).toHaveLength(6);
      expect(statements[0]).toBe('begin');
      expect(statements[1]).toMatch(/^insert into idempotency_keys/);
      expect(statements[2]).toMatch(/^with member as \(.*insert into operator_member_daily/);
      expect(statements[3]).toMatch(/insert into ledger_entries/);
      expect(statements[4]).toMatch(/^with logged as \(.*insert into audit_log.*update idempotency_keys.*insert into operator_daily_credits/);
      expect(statements[5]).toBe('commit');
    }
  });

  it('a transfer (Pay Now without a payout) has the same shape', async () => {
    const userId = await newMember(t.database);
    await statementsOf('/api/transferAdmin', { userId, amount: 10, typeIncome: 'wallet recharge' });
    const statements = await statementsOf('/api/transferAdmin', { userId, amount: 5, typeIncome: 'wallet recharge' });
    expect(statements).toHaveLength(6);
    expect(statements[2]).toMatch(/^with member as \(.*insert into operator_member_daily/);
    expect(statements[4]).toMatch(/insert into operator_daily_credits/);
  });
});
