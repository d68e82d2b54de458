import { expect } from 'vitest';
import { moneyInvariantViolations } from '../../lib/money-invariants.ts';
import { bearer, type TestContext } from '../../test/harness.ts';

/**
 * The books property's checks (issue 25, books.property.test.ts): what must hold after every money
 * operation, whatever came before, and the footprint a refused operation must leave unchanged.
 */

/**
 * After every operation: the money invariants (every transfer's legs sum to zero, each account
 * equals its legs, the trial balance is zero, recoveries, run totals), no wallet below zero, each
 * bank line returned at most once (its return transfer holds exactly one bank_return line, the
 * member's, of the line's amount, and a line that is not returned has none), no bank_return line
 * outside a returned line, no bank_payout line both reversed and in a live batch, "withdrawals
 * to send" equal to what waits plus what live batches hold unreleased, and the trial balance
 * endpoint says balanced.
 */
export async function assertBooks(t: TestContext, booksToken: string, after: string) {
  expect(await moneyInvariantViolations(t.database), after).toEqual([]);
  expect(await t.database.query('select user_id, balance_paise::text from users where balance_paise < 0'), after).toEqual([]);
  // Per bank line: how many bank_return ledger lines its return transfer holds (≤ 1; 1 exactly when returned).
  expect(await t.database.query(`
    select l.id::text, l.status, l.return_transfer_id::text, count(e.id)::int as returns,
           coalesce(sum(e.amount_paise) filter (where e.user_id = l.user_id), 0)::text as credited, l.amount_paise::text
      from bank_transfer_lines l
      left join ledger_entries e on e.kind = 'bank_return' and e.transfer_id = l.return_transfer_id
     group by l.id
    having count(e.id) > 1
        or (l.status = 'returned') <> (count(e.id) = 1)
        or (l.status <> 'returned' and l.return_transfer_id is not null)
        or (l.status = 'returned' and coalesce(sum(e.amount_paise) filter (where e.user_id = l.user_id), 0) <> l.amount_paise)`), after).toEqual([]);
  // Every bank_return ledger line is the return of one line (return_transfer_id is unique among lines).
  expect(await t.database.query(`
    select e.id::text, e.user_id::text, e.transfer_id::text from ledger_entries e
     where e.kind = 'bank_return' and not exists (select 1 from bank_transfer_lines l where l.return_transfer_id = e.transfer_id)`), after).toEqual([]);
  // Per batch and member: as many returns as returned lines (the same money, counted another way).
  expect(await t.database.query(`
    select coalesce(r.batch, l.batch)::text as batch, coalesce(r.user_id, l.user_id)::text as user_id, r.n as credits, l.n as lines
      from (select t.bank_batch_id as batch, e.user_id, count(*) as n from ledger_entries e join transfers t on t.id = e.transfer_id
             where e.kind = 'bank_return' group by 1, 2) r
      full join (select batch_id as batch, user_id, count(*) as n from bank_transfer_lines where status = 'returned' group by 1, 2) l
        on l.batch = r.batch and l.user_id = r.user_id
     where coalesce(r.n, 0) <> coalesce(l.n, 0)`), after).toEqual([]);
  // Bank-mode payouts (issue 25): a line is either reversed or held by a live batch line, never both.
  expect(await t.database.query(`
    select l.id::text, l.ledger_entry_id::text, l.status from bank_transfer_lines l
     where l.status <> 'cancelled' and exists (select 1 from ledger_entries r where r.reversal_of = l.ledger_entry_id)`), after).toEqual([]);
  // "Withdrawals to send" holds exactly what is waiting (not gathered, not reversed) plus what
  // live batches hold and have not released.
  expect(await t.database.query(`
    select a.s::text as account, w.s::text as waiting, q.s::text as queued
      from (select coalesce(sum(amount_paise), 0) as s from book_legs where account = 'withdrawals_payable') a,
           (select coalesce(-sum(l.amount_paise), 0) as s from ledger_entries l
             where l.kind in ('wallet_withdrawal', 'bank_payout') and l.amount_paise < 0
               and exists (select 1 from book_legs g where g.transfer_id = l.transfer_id and g.account = 'withdrawals_payable')
               and not exists (select 1 from ledger_entries r where r.reversal_of = l.id)
               and not exists (select 1 from bank_transfer_lines t where t.ledger_entry_id = l.id and not t.cancelled)) w,
           (select coalesce(sum(amount_paise), 0) as s from bank_transfer_lines where status = 'queued') q
     where a.s <> w.s + q.s`), after).toEqual([]);
  const trial = await t.app.inject({ method: 'GET', url: '/api/books/trial-balance', headers: bearer(booksToken) });
  expect(trial.statusCode, trial.body).toBe(200);
  const tb = trial.json().data as { balanced: boolean; difference: number; totalDebit: number; totalCredit: number };
  expect({ balanced: tb.balanced, difference: tb.difference }, `${after}: trial balance ${trial.body}`).toEqual({ balanced: true, difference: 0 });
}

/** What any money movement changes: ledger lines, company legs, transfers, balances, requests, payouts. */
export async function footprint(t: TestContext) {
  const [row] = await t.database.query<Record<string, string>>(`
    select (select count(*) from ledger_entries)::text as ledger, (select count(*) from book_legs)::text as legs,
           (select count(*) from transfers)::text as transfers, (select coalesce(sum(balance_paise), 0) from users)::text as balances,
           (select count(*) from memberships)::text as memberships, (select count(*) from withdrawal_requests)::text as requests,
           (select count(*) from daily_payouts where status = 'Success')::text as paid`);
  return row;
}
