import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { moneyInvariantViolations } from '../lib/money-invariants.ts';
import { newMember } from '../modules/wallet/money-test-kit.ts';
import { createTestApp, type TestContext } from '../test/harness.ts';
import { post, postEntries, postEntry } from './books.ts';

/**
 * The one posting function (issue 25, db/books.ts): a transfer's legs are written together or not
 * at all, each line's counter-leg is its kind's company account, and a transfer names its cause.
 */

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
afterEach(async () => {
  expect(await moneyInvariantViolations(t.database)).toEqual([]);
});

const count = async (table: string) => Number((await t.database.query<{ n: string }>(`select count(*)::text as n from ${table}`))[0].n);
const legsOf = (transferId: number) =>
  t.database.query<{ account: string; amount: string }>(
    'select account, amount_paise::text as amount from book_legs where transfer_id = $1 order by account', [transferId]);

describe('the posting function (issue 25)', () => {
  it('posts a recharge as one transfer: the member line and the company bank leg, summing to zero', async () => {
    const userId = await newMember(t.database, 'Books Recharge');
    const posted = await postEntry(t.database.db, { userId, kind: 'wallet_recharge', amountPaise: 12_345, actorId: 1 });
    expect(posted.balancePaise).toBe(12_345);
    expect(await legsOf(posted.transferId)).toEqual([{ account: 'company_bank', amount: '-12345' }]);
    const [line] = await t.database.query<{ transfer_id: string }>('select transfer_id::text from ledger_entries where id = $1', [posted.entryId]);
    expect(Number(line.transfer_id)).toBe(posted.transferId);
    const [transfer] = await t.database.query<{ kind: string; actor_id: string }>(
      'select kind, actor_id::text from transfers where id = $1', [posted.transferId]);
    expect(transfer).toEqual({ kind: 'wallet_recharge', actor_id: '1' });
  });

  it('one leg per account for many lines: a payout with its deductions', async () => {
    const userId = await newMember(t.database, 'Books Payout');
    const posted = await postEntries(t.database.db, { userId, system: 'test' }, [
      { kind: 'daily_payout', amountPaise: 1000 }, { kind: 'tds', amountPaise: -50 }, { kind: 'admin_charge', amountPaise: -25 },
    ]);
    expect(posted.balancePaise).toBe(925);
    expect(await legsOf(posted.transferId)).toEqual([
      { account: 'admin_charge_income', amount: '25' }, { account: 'daily_payout_expense', amount: '-1000' }, { account: 'tds_payable', amount: '50' },
    ]);
  });

  it('writes nothing when a wallet cannot cover its lines, nor for a member who does not exist', async () => {
    const userId = await newMember(t.database, 'Books Short');
    await postEntry(t.database.db, { userId, kind: 'wallet_recharge', amountPaise: 100, system: 'test' });
    const before = await Promise.all(['transfers', 'book_legs', 'ledger_entries'].map(count));
    await expect(postEntry(t.database.db, { userId, kind: 'wallet_withdrawal', amountPaise: -101, system: 'test' }))
      .rejects.toThrow('Insufficient wallet balance: the member has 1.00 and 1.01 was requested');
    await expect(postEntry(t.database.db, { userId: 987_654_321, kind: 'wallet_recharge', amountPaise: 100, system: 'test' }))
      .rejects.toThrow('Member 987654321 not found');
    // Two members in one transfer, the second short: neither moves.
    const other = await newMember(t.database, 'Books Other');
    await expect(post(t.database.db, { kind: 'test', system: 'test' }, [
      { userId: other, kind: 'wallet_recharge', amountPaise: 500 }, { userId, kind: 'wallet_withdrawal', amountPaise: -500 },
    ])).rejects.toThrow(/Insufficient wallet balance/);
    expect(await Promise.all(['transfers', 'book_legs', 'ledger_entries'].map(count))).toEqual(before);
    const [b] = await t.database.query<{ balance: string }>('select balance_paise::text as balance from users where user_id = $1', [other]);
    expect(b.balance).toBe('0');
  });

  it('refuses company legs that do not balance, and a transfer that names no cause', async () => {
    await expect(post(t.database.db, { kind: 'test', system: 'test' }, [], [{ account: 'company_bank', amountPaise: -100 }]))
      .rejects.toThrow('Transfer test does not balance: its company legs sum to -100 paise');
    const userId = await newMember(t.database, 'Books Cause');
    await expect(postEntries(t.database.db, { userId }, [{ kind: 'wallet_recharge', amountPaise: 100 }])).resolves.toMatchObject({ balancePaise: 100 });
    await expect(post(t.database.db, { kind: 'test' }, [{ userId, kind: 'wallet_recharge', amountPaise: 100 }]))
      .rejects.toThrow('A transfer (test) names what caused it');
  });

  it('moves money between company accounts alone (a bank settlement) as a balanced transfer', async () => {
    const posted = await post(t.database.db, { kind: 'test_settle', system: 'test' }, [], [
      { account: 'bank_in_transit', amountPaise: -700 }, { account: 'company_bank', amountPaise: 700 },
    ]);
    expect(await legsOf(posted.transferId!)).toEqual([{ account: 'bank_in_transit', amount: '-700' }, { account: 'company_bank', amount: '700' }]);
    // Its balancing counter-part, so the books' accounts end where they began.
    await post(t.database.db, { kind: 'test_settle', system: 'test', corrects: posted.transferId }, [], [
      { account: 'bank_in_transit', amountPaise: 700 }, { account: 'company_bank', amountPaise: -700 },
    ]);
  });

  it('keeps transfers and legs immutable, and every new ledger line naming its transfer', async () => {
    const userId = await newMember(t.database, 'Books Immutable');
    const posted = await postEntry(t.database.db, { userId, kind: 'wallet_recharge', amountPaise: 100, system: 'test' });
    await expect(t.database.query('update transfers set kind = $1 where id = $2', ['x', posted.transferId])).rejects.toThrow(/immutable/);
    await expect(t.database.query('delete from book_legs where transfer_id = $1', [posted.transferId])).rejects.toThrow(/immutable/);
    await expect(t.database.query(`insert into ledger_entries (user_id, kind, amount_paise) values ($1, 'wallet_recharge', 1)`, [userId]))
      .rejects.toThrow(/ledger_transfer_named/);
  });
});
