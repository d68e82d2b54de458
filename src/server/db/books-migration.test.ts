import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moneyInvariantViolations } from '../lib/money-invariants.ts';
import { postEntry } from './books.ts';
import { legacyViolations, migrateUpTo, writeLegacyLedger, type Legacy } from './books-migration-legacy.ts';
import type { Database } from './client.ts';
import { emptyTestDatabase } from './test-database.ts';

/**
 * The books migration (drizzle/0029_books.sql, issue 25) turns a ledger written before the books
 * into balanced books: each old line becomes its own transfer (same id) with one counter-leg by its
 * kind, each shortfall of a reversed run a transfer of its own, and book_daily is what the legs sum
 * to; later postings continue above every old id, and no later line may go without a transfer.
 *
 * How the state before the books is built: the journal migrations up to 0028 only (a copy of
 * drizzle/ with the journal cut there), then the ledger written by SQL in the old writers' shapes
 * (books-migration-legacy.ts). The trigger functions of drizzle/functions/ are NOT applied to it:
 * today's files are issue 25's (recovery.sql writes transfer_id and book_legs, which 0028 does not
 * have) and tests may not read git history for the old ones. The ledger triggers the journal
 * migrations themselves created (ledger_daily_insert keeps ledger_daily and ledger_totals,
 * income_months_insert) fire on the legacy INSERTs; the one thing the old recovery.sql did by
 * trigger — the recovery line, recovered_paise, recovery_paise — is written by hand. The legacy
 * state is checked against the money invariants of before the books first (legacyViolations).
 * Then `database.migrate()` applies the rest of the real journal and today's functions, as a
 * server start does.
 *
 * Runs on either test database (emptyTestDatabase: a fresh in-memory PGlite, or a throw-away
 * database on the TEST_DATABASE_URL server): drizzle's PGlite and node-postgres migrators are the
 * same code over `database.db`.
 */

let database: Database;
let drop: () => Promise<void>;
let legacy: Legacy;

/** The counter account of each old line, by kind: the map of drizzle/0029 (withdrawals from before the books were paid: the bank). */
const COUNTER: Record<string, string> = {
  wallet_recharge: 'company_bank', wallet_withdrawal: 'company_bank', membership_fee: 'membership_revenue',
  daily_payout: 'daily_payout_expense', royalty: 'royalty_expense', reward: 'reward_expense', referral_bonus: 'reward_expense',
  admin_transfer: 'operator_credits', level_income: 'level_income_expense', tds: 'tds_payable', admin_charge: 'admin_charge_income',
  external_payment: 'outside_payments', recovery: 'recoveries_owed',
};

const balances = async () => Object.fromEntries((await database.query<{ account: string; total: string }>(
  'select account, sum(amount_paise)::text as total from book_legs group by 1 order by 1')).map((r) => [r.account, Number(r.total)]));

beforeAll(async () => {
  ({ database, drop } = await emptyTestDatabase());
  await migrateUpTo(database);
  legacy = await writeLegacyLedger(database);
  expect(await legacyViolations(database)).toEqual([]);
  await database.migrate();
});
afterAll(() => drop());

describe('the books migration (drizzle/0029, issue 25)', () => {
  it('leaves the money invariants, the books among them, holding on a ledger from before the books', async () => {
    expect(await moneyInvariantViolations(database)).toEqual([]);
  });

  it('makes each old line a transfer of its own with its id, its cause and one counter-leg by its kind', async () => {
    const rows = await database.query<{
      id: number; transfer_id: number | null; t_id: number | null; t_kind: string; run_id: number | null; batch_id: number | null;
      actor_id: number | null; corrects: number | null; same_time: boolean; legs: { account: string; amount: number }[] | null;
    }>(`
      select l.id::int, l.transfer_id::int, t.id::int as t_id, t.kind as t_kind, t.run_id::int, t.batch_id, t.actor_id::int, t.corrects::int,
             t.created_at = l.created_at as same_time,
             (select json_agg(json_build_object('account', b.account, 'amount', b.amount_paise::int) order by b.id)
                from book_legs b where b.transfer_id = l.id) as legs
        from ledger_entries l left join transfers t on t.id = l.id
       order by l.id`);
    expect(rows).toHaveLength(legacy.lines.length);
    for (const [i, line] of legacy.lines.entries()) {
      const row = rows[i];
      expect(row, `line ${line.id} (${line.kind})`).toEqual({
        id: line.id, transfer_id: null, t_id: line.id, t_kind: line.kind, run_id: line.runId ?? null, batch_id: line.batchId ?? null,
        actor_id: line.actorId ?? null, corrects: line.reversalOf ?? null, same_time: true,
        legs: [{ account: COUNTER[line.kind], amount: -line.amountPaise }],
      });
    }
    // Every kind the old code wrote is among them; the withdrawals went to the bank, none is "to send".
    expect(new Set(legacy.lines.map((l) => l.kind))).toEqual(new Set(Object.keys(COUNTER)));
    const accounts = await balances();
    expect(accounts.withdrawals_payable).toBeUndefined();
    expect(accounts.company_bank).toBe(-(500_000 - 100_000 - 50_000)); // recharged less withdrawn: a debit (asset)
  });

  it('makes the reversed run\'s shortfall a transfer: the member owes it, the run\'s expense is given back', async () => {
    const maxLine = Math.max(...legacy.lines.map((l) => l.id));
    const transfers = await database.query<{ id: number; run_id: number; same_time: boolean; legs: { account: string; amount: number }[] }>(`
      select t.id::int, t.run_id::int, t.created_at = s.created_at as same_time,
             (select json_agg(json_build_object('account', b.account, 'amount', b.amount_paise::int) order by b.account)
                from book_legs b where b.transfer_id = t.id) as legs
        from transfers t join run_shortfalls s on s.run_id = t.run_id
       where t.kind = 'shortfall'`);
    expect(transfers).toEqual([{
      id: expect.any(Number), run_id: legacy.shortfall.runId, same_time: true,
      legs: [{ account: 'daily_payout_expense', amount: legacy.shortfall.paise }, { account: 'recoveries_owed', amount: -legacy.shortfall.paise }],
    }]);
    expect(transfers[0].id).toBeGreaterThan(maxLine);
    // The reversed run costs nothing in the end: its expense, TDS and admin charge net to zero;
    // what the member still owes is the recoveries-owed account's (debit) balance.
    const accounts = await balances();
    expect({ expense: accounts.daily_payout_expense, tds: accounts.tds_payable, admin: accounts.admin_charge_income }).toEqual({ expense: 0, tds: 0, admin: 0 });
    const open = legacy.shortfall.paise - legacy.shortfall.recoveredPaise;
    expect(accounts.recoveries_owed).toBe(-open);
    const [owed] = await database.query<{ owed: string }>('select recovery_paise::text as owed from users where user_id = $1', [legacy.shortfall.userId]);
    expect(Number(owed.owed)).toBe(open);
  });

  it('keeps book_daily equal to the legs, per account and India day', async () => {
    const byLegs = await database.query<{ account: string; day: string; total: string; legs: string }>(`
      select account, (created_at at time zone 'Asia/Kolkata')::date::text as day, sum(amount_paise)::text as total, count(*)::text as legs
        from book_legs group by 1, 2 order by 1, 2`);
    const kept = await database.query<{ account: string; day: string; total: string; legs: string }>(`
      select account, day::text, sum(total_paise)::text as total, sum(legs)::text as legs from book_daily group by 1, 2 order by 1, 2`);
    expect(kept).toEqual(byLegs);
    // The activation at 19:00 UTC on 1 March is India's 2 March.
    expect(kept.filter((r) => r.account === 'membership_revenue').map((r) => [r.day, r.total])).toEqual([['2026-03-01', '200000'], ['2026-03-02', '150000']]);
  });

  it('continues the transfers above every old id: a new posting gets a fresh transfer, settles the old recovery in it, and the books still hold', async () => {
    const [before] = await database.query<{ max: number }>('select greatest((select max(id) from transfers), (select max(id) from ledger_entries))::int as max');
    const payee = legacy.shortfall.userId;
    const open = legacy.shortfall.paise - legacy.shortfall.recoveredPaise;
    const posted = await postEntry(database.db, { userId: payee, kind: 'wallet_recharge', amountPaise: 20_000, system: 'books-migration test' });
    expect(posted.transferId).toBeGreaterThan(before.max);
    expect(posted.balancePaise).toBe(20_000 - open);
    // Its lines name it: the recharge and the recovery recovery.sql settles from it, whose leg is recoveries_owed.
    const lines = await database.query<{ kind: string; amount: number }>(
      'select kind, amount_paise::int as amount from ledger_entries where transfer_id = $1 order by id', [posted.transferId]);
    expect(lines).toEqual([{ kind: 'wallet_recharge', amount: 20_000 }, { kind: 'recovery', amount: -open }]);
    const legs = await database.query<{ account: string; amount: number }>(
      'select account, amount_paise::int as amount from book_legs where transfer_id = $1 order by account', [posted.transferId]);
    expect(legs).toEqual([{ account: 'company_bank', amount: -20_000 }, { account: 'recoveries_owed', amount: open }]);
    expect((await balances()).recoveries_owed).toBe(0);
    expect(await moneyInvariantViolations(database)).toEqual([]);
  });

  it('refuses a new ledger line that names no transfer (ledger_transfer_named)', async () => {
    await expect(database.query(
      `insert into ledger_entries (user_id, kind, amount_paise, description) values ($1, 'wallet_recharge', 100, 'No transfer')`,
      [legacy.members.buyer],
    )).rejects.toThrow(/ledger_transfer_named/);
    expect(await moneyInvariantViolations(database)).toEqual([]);
  });
});
