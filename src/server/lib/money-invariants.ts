import type { Database } from '../db/client.ts';
import type { users } from '../db/schema/members.ts';
import type { LedgerKind } from '../db/schema/money.ts';

/** A member's cached balance and the sum of their ledger rows, as text (exact at any size). */
type BalanceCheckRow = { user_id: (typeof users.$inferSelect)['userId']; balance: string; ledger: string };
/** A kind's ledger total and its ledger_daily total, as text. */
type DailyCheckRow = { kind: LedgerKind; ledger: string; daily: string };
/** A kind's ledger total and count and what ledger_totals keeps, as text. */
type TotalsCheckRow = { kind: LedgerKind; ledger: string; kept: string };
/** A violation, said in a sentence by the statement that found it. */
type ViolationRow = { what: string };
/** What verify-ledger went through: members, ledger rows and kinds, as text. */
type SizeRow = { members: string; rows: string; kinds: string };

/**
 * The money invariants: each member's cached balance equals the sum of their ledger rows and is
 * never negative, and the per-day (ledger_daily) and all-time (ledger_totals) totals kept by
 * triggers match the ledger, and every ledger batch_id and daily payout ledger_entry_id resolves
 * (those two links have no foreign key: drizzle/0017), bank_in_transit lists exactly the bank lines in transit, each settled bank line's UTR is its own (bank_utrs), and each member's recovery owed equals the
 * open part of their shortfalls, whose recovered part the recovery ledger rows add up to (issue 22). The tests check them after every money test, the bench after its
 * run, and `npm run verify-ledger` on a live database.
 * Returns the violations, so a failure names the member or the ledger kind.
 */
export async function moneyInvariantViolations(database: Database): Promise<string[]> {
  const balances = await database.query<BalanceCheckRow>(`
    select u.user_id, u.balance_paise::text as balance, coalesce(s.total, 0)::text as ledger
      from users u
      left join (select user_id, sum(amount_paise) as total from ledger_entries group by user_id) s on s.user_id = u.user_id
     where u.balance_paise <> coalesce(s.total, 0) or u.balance_paise < 0`);
  const daily = await database.query<DailyCheckRow>(`
    select coalesce(l.kind, d.kind) as kind, coalesce(l.total, 0)::text as ledger, coalesce(d.total, 0)::text as daily
      from (select kind, sum(amount_paise) as total from ledger_entries group by kind) l
      full join (select kind, sum(total_paise) as total from ledger_daily group by kind) d on d.kind = l.kind
     where coalesce(l.total, 0) <> coalesce(d.total, 0)`);
  // Each day's sides (drizzle/0035): what the Books screen shows as a period's debits and credits.
  const sides = await database.query<ViolationRow>(`
    select 'kind ' || coalesce(l.kind, d.kind) || ' on ' || coalesce(l.day, d.day)::text || ': ledger debits ' || coalesce(l.debit, 0)
           || ' and credits ' || coalesce(l.credit, 0) || ' paise, ledger_daily ' || coalesce(d.debit, 0) || ' and ' || coalesce(d.credit, 0) as what
      from (select kind, (created_at at time zone 'Asia/Kolkata')::date as day,
                   coalesce(-sum(amount_paise) filter (where amount_paise < 0), 0) as debit, coalesce(sum(amount_paise) filter (where amount_paise > 0), 0) as credit
              from ledger_entries group by 1, 2) l
      full join (select kind, day, sum(debit_paise) as debit, sum(credit_paise) as credit from ledger_daily group by 1, 2) d
        on d.kind = l.kind and d.day = l.day
     where coalesce(l.debit, 0) <> coalesce(d.debit, 0) or coalesce(l.credit, 0) <> coalesce(d.credit, 0)`);
  const totals = await database.query<TotalsCheckRow>(`
    select coalesce(l.kind, t.kind) as kind, coalesce(l.total, 0)::text || ' paise in ' || coalesce(l.n, 0) || ' rows' as ledger,
           coalesce(t.total, 0)::text || ' paise in ' || coalesce(t.n, 0) || ' rows' as kept
      from (select kind, sum(amount_paise) as total, count(*) as n from ledger_entries group by kind) l
      full join (select kind, sum(total_paise) as total, sum(entries) as n from ledger_totals group by kind) t on t.kind = l.kind
     where coalesce(l.total, 0) <> coalesce(t.total, 0) or coalesce(l.n, 0) <> coalesce(t.n, 0)`);
  // Links without a foreign key (drizzle/0017, 0021): every batch_id, payout ledger_entry_id and
  // ledger or payout member resolves.
  const links = await database.query<ViolationRow>(`
    select 'ledger entry ' || l.id || ': member ' || l.user_id || ' does not exist' as what
      from ledger_entries l
     where not exists (select 1 from users u where u.user_id = l.user_id)
    union all
    select 'daily payout ' || p.id || ': member ' || p.user_id || ' does not exist'
      from daily_payouts p
     where not exists (select 1 from users u where u.user_id = p.user_id)
    union all
    select 'ledger entry ' || l.id || ': batch ' || l.batch_id || ' does not exist' as what
      from ledger_entries l
     where l.batch_id is not null and not exists (select 1 from income_batches b where b.batch_id = l.batch_id)
    union all
    select 'daily payout ' || p.id || ': ledger entry ' || p.ledger_entry_id || ' does not exist'
      from daily_payouts p
     where p.ledger_entry_id is not null and not exists (select 1 from ledger_entries l where l.id = p.ledger_entry_id)
    union all
    -- bank_in_transit (drizzle/0037) lists exactly the bank lines in transit, as they are.
    select 'bank line ' || coalesce(t.id, it.line_id) || ': ' || case when t.id is null then 'listed in transit, not in transit'
             when it.line_id is null then 'in transit, not listed in bank_in_transit'
             else 'listed in transit with another batch, amount or time' end
      from (select id, batch_id, amount_paise, in_transit_since from bank_transfer_lines where status = 'in_transit') t
      full join bank_in_transit it on it.line_id = t.id
     where t.id is null or it.line_id is null
        or (it.batch_id, it.amount_paise, it.since) is distinct from (t.batch_id, t.amount_paise, t.in_transit_since)
    union all
    -- Each settled line's UTR is kept for it (drizzle/0038): one UTR settles one line.
    select 'bank line ' || t.id || ': settled with UTR ' || coalesce(t.utr, 'none') || ', not kept for it in bank_utrs'
      from bank_transfer_lines t
     where t.status = 'settled' and not exists (select 1 from bank_utrs k where k.utr = t.utr and k.line_id = t.id)`);
  // Recoveries (issue 22): what a member owes is what the reversals could not take back less what
  // their credits have settled; each shortfall is settled at most in full; the recovery ledger rows
  // add up to what was settled.
  const recoveries = await database.query<ViolationRow>(`
    select 'member ' || u.user_id || ': recovery owed ' || u.recovery_paise || ' paise, open shortfalls ' || coalesce(s.open, 0)
           || ' paise, recovered ' || coalesce(s.recovered, 0) || ' paise, recovery ledger rows ' || coalesce(-l.total, 0) || ' paise' as what
      from users u
      left join (select user_id, sum(shortfall_paise - recovered_paise) as open, sum(recovered_paise) as recovered
                   from run_shortfalls group by user_id) s on s.user_id = u.user_id
      left join (select user_id, sum(amount_paise) as total from ledger_entries where kind = 'recovery' group by user_id) l on l.user_id = u.user_id
     where u.recovery_paise <> coalesce(s.open, 0) or coalesce(s.recovered, 0) <> coalesce(-l.total, 0)
    union all
    select 'run ' || run_id || ', member ' || user_id || ': recovered ' || recovered_paise || ' paise of a shortfall of ' || shortfall_paise
      from run_shortfalls where recovered_paise < 0 or recovered_paise > shortfall_paise`);
  const books = await booksViolations(database);
  return [
    ...books,
    ...links.map((r) => r.what),
    ...recoveries.map((r) => r.what),
    ...balances.map((r) => `member ${r.user_id}: balance ${r.balance} paise, ledger sum ${r.ledger} paise`),
    ...daily.map((r) => `kind ${r.kind}: ledger ${r.ledger} paise, ledger_daily ${r.daily} paise`),
    ...sides.map((r) => r.what),
    ...totals.map((r) => `kind ${r.kind}: ledger ${r.ledger}, ledger_totals ${r.kept}`),
  ];
}

/**
 * The books (issue 25, docs/books.md): every transfer's legs (its members' ledger lines and its
 * company legs) sum to zero, and every line and leg names a transfer that exists, on an account of
 * the chart; each company account's kept balance (book_daily) equals the sum of its legs, and each
 * day's kept debits and credits (book_daily, drizzle/0035) those of the day's legs; the
 * trial balance (company accounts and the member wallets, ledger_totals) sums to zero; what the
 * members owe (users.recovery_paise) is the recoveries-owed account's balance; what each run's
 * own lines moved (not their reversal, nor recoveries, nor what it sent to the bank) is the run's
 * gross and deductions; and a run's bank_payout lines are debits of a bank-mode run, at most its net.
 */
async function booksViolations(database: Database): Promise<string[]> {
  const found = await database.query<ViolationRow>(`
    with m as (select coalesce(transfer_id, id) as tid, sum(amount_paise) as s from ledger_entries group by 1),
         b as (select transfer_id as tid, sum(amount_paise) as s from book_legs group by 1)
    select 'transfer ' || coalesce(m.tid, b.tid) || ': its legs sum to ' || (coalesce(m.s, 0) + coalesce(b.s, 0)) || ' paise' as what
      from m full join b on b.tid = m.tid
     where coalesce(m.s, 0) + coalesce(b.s, 0) <> 0
    union all
    select 'ledger entry ' || l.id || ': transfer ' || coalesce(l.transfer_id, l.id) || ' does not exist'
      from ledger_entries l where not exists (select 1 from transfers t where t.id = coalesce(l.transfer_id, l.id))
    union all
    select 'book leg ' || g.id || ': transfer ' || g.transfer_id || ' does not exist'
      from book_legs g where not exists (select 1 from transfers t where t.id = g.transfer_id)
    union all
    select 'book leg ' || g.id || ': account ' || g.account || ' is not in the chart'
      from book_legs g where g.account = 'member_wallets' or not exists (select 1 from book_accounts a where a.code = g.account)
    union all
    select 'account ' || coalesce(g.account, d.account) || ': legs ' || coalesce(g.s, 0) || ' paise, book_daily ' || coalesce(d.s, 0) || ' paise'
      from (select account, sum(amount_paise) as s, count(*) as n from book_legs group by 1) g
      full join (select account, sum(total_paise) as s, sum(legs) as n from book_daily group by 1) d on d.account = g.account
     where coalesce(g.s, 0) <> coalesce(d.s, 0) or coalesce(g.n, 0) <> coalesce(d.n, 0)
    union all
    select 'account ' || coalesce(g.account, d.account) || ' on ' || coalesce(g.day, d.day)::text || ': legs debit ' || coalesce(g.debit, 0)
           || ' and credit ' || coalesce(g.credit, 0) || ' paise, book_daily ' || coalesce(d.debit, 0) || ' and ' || coalesce(d.credit, 0)
      from (select account, (created_at at time zone 'Asia/Kolkata')::date as day,
                   coalesce(-sum(amount_paise) filter (where amount_paise < 0), 0) as debit, coalesce(sum(amount_paise) filter (where amount_paise > 0), 0) as credit
              from book_legs group by 1, 2) g
      full join (select account, day, sum(debit_paise) as debit, sum(credit_paise) as credit from book_daily group by 1, 2) d
        on d.account = g.account and d.day = g.day
     where coalesce(g.debit, 0) <> coalesce(d.debit, 0) or coalesce(g.credit, 0) <> coalesce(d.credit, 0)
    union all
    select 'trial balance: company accounts ' || c.s || ' paise and member wallets ' || w.s || ' paise do not sum to zero'
      from (select coalesce(sum(total_paise), 0) as s from book_daily) c, (select coalesce(sum(total_paise), 0) as s from ledger_totals) w
     where c.s + w.s <> 0
    union all
    select 'recoveries owed: the account holds ' || -coalesce(b.s, 0) || ' paise, members owe ' || o.s || ' paise'
      from (select sum(total_paise) as s from book_daily where account = 'recoveries_owed') b,
           (select coalesce(sum(recovery_paise), 0) as s from users) o
     where -coalesce(b.s, 0) <> o.s
    union all
    -- The TDS report's rollup (docs/tax.md): all of its TDS is the ledger's tds lines (reversals
    -- included), and each quarter counts the members in its set.
    select 'tds rollup: its quarters hold ' || q.s || ' paise of TDS, the ledger''s tds lines ' || l.s
      from (select coalesce(sum(tds_paise), 0) as s from tds_quarter_totals) q,
           (select -coalesce(sum(total_paise), 0) as s from ledger_totals where kind = 'tds') l
     where q.s <> l.s
    union all
    select 'tds rollup: quarter ' || coalesce(m.quarter, q.quarter) || ' counts ' || coalesce(q.n, 0) || ' members, its set holds ' || coalesce(m.n, 0)
      from (select quarter, count(*) as n from tds_quarter_members group by 1) m
      full join (select quarter, sum(members) as n from tds_quarter_totals group by 1) q on q.quarter = m.quarter
     where coalesce(m.n, 0) <> coalesce(q.n, 0)
    union all
    select 'run ' || r.run_id || ': its lines credited ' || coalesce(l.credits, 0) || ' and debited ' || coalesce(l.debits, 0)
           || ' paise; the run says gross ' || r.gross_paise || ', deductions ' || r.deductions_paise
      from income_runs r
      left join (select run_id, sum(amount_paise) filter (where amount_paise > 0 and kind <> 'bank_payout') as credits,
                        -sum(amount_paise) filter (where amount_paise < 0 and kind <> 'bank_payout') as debits
                   from ledger_entries where run_id is not null and reversal_of is null and kind <> 'recovery' group by run_id) l on l.run_id = r.run_id
     where r.status in ('completed', 'reversed') and (coalesce(l.credits, 0) <> r.gross_paise or coalesce(l.debits, 0) <> r.deductions_paise)
    union all
    -- Bank-mode payouts (issue 25): a run sends on to the bank at most what it paid net (less what
    -- recoveries took), only a run that pays to bank does, and each bank_payout line is a debit.
    select 'run ' || r.run_id || ': sent ' || b.sent || ' paise to the bank of a net of ' || (r.gross_paise - r.deductions_paise)
           || ' paise, paying to ' || coalesce(r.state->>'payTo', 'wallet')
      from income_runs r
      join (select run_id, -sum(amount_paise) as sent from ledger_entries
             where kind = 'bank_payout' and run_id is not null and reversal_of is null group by run_id) b on b.run_id = r.run_id
     where r.status in ('completed', 'reversed') and (b.sent > r.gross_paise - r.deductions_paise or coalesce(r.state->>'payTo', 'wallet') <> 'bank')
    union all
    select 'ledger entry ' || id || ': bank_payout of ' || amount_paise || ' paise is not a debit'
      from ledger_entries where kind = 'bank_payout' and reversal_of is null and amount_paise >= 0`);
  return found.map((r) => r.what);
}

/**
 * `npm run verify-ledger`: checks the invariants, says what it checked and what it found, and
 * returns the process exit code (0 when they hold, 1 on any violation).
 */
export async function verifyLedger(database: Database, print: (line: string) => void): Promise<number> {
  const [size] = await database.query<SizeRow>(`
    select (select count(*) from users)::text as members, count(*)::text as rows, count(distinct kind)::text as kinds
      from ledger_entries`);
  const n = (v: string) => Number(v).toLocaleString('en-IN');
  print(`Checked ${n(size.members)} accounts and ${n(size.rows)} ledger rows of ${n(size.kinds)} kinds on ${database.kind}:`);
  print('  - every balance equals the sum of its ledger rows, and none is below zero');
  print('  - the per-day totals (ledger_daily), and each day\'s debits and credits, match the ledger, kind by kind');
  print('  - the all-time totals and row counts (ledger_totals) match the ledger, kind by kind');
  print('  - every recovery owed equals its open shortfalls, and the recovery rows what was recovered');
  print('  - the books: every transfer balances, every account equals its legs (each day’s debits and credits too), the trial balance is zero, each run moved its totals');
  const violations = await moneyInvariantViolations(database);
  if (violations.length === 0) {
    print('The money invariants hold.');
    return 0;
  }
  print(`The money invariants are BROKEN (${n(String(violations.length))} violations):`);
  const shown = 50;
  for (const v of violations.slice(0, shown)) print(`  ${v}`);
  if (violations.length > shown) print(`  … and ${n(String(violations.length - shown))} more`);
  return 1;
}
