import type { Database } from '../db/client.ts';

/**
 * The money invariants: each member's cached balance equals the sum of their ledger rows and is
 * never negative, and the per-day (ledger_daily) and all-time (ledger_totals) totals kept by
 * triggers match the ledger, and every ledger batch_id and daily payout ledger_entry_id resolves
 * (those two links have no foreign key: drizzle/0017), and each member's recovery owed equals the
 * open part of their shortfalls, whose recovered part the recovery ledger rows add up to (issue 22). The tests check them after every money test, the bench after its
 * run, and `npm run verify-ledger` on a live database.
 * Returns the violations, so a failure names the member or the ledger kind.
 */
export async function moneyInvariantViolations(database: Database): Promise<string[]> {
  const balances = await database.query<{ user_id: number; balance: string; ledger: string }>(`
    select u.user_id, u.balance_paise::text as balance, coalesce(s.total, 0)::text as ledger
      from users u
      left join (select user_id, sum(amount_paise) as total from ledger_entries group by user_id) s on s.user_id = u.user_id
     where u.balance_paise <> coalesce(s.total, 0) or u.balance_paise < 0`);
  const daily = await database.query<{ kind: string; ledger: string; daily: string }>(`
    select coalesce(l.kind, d.kind) as kind, coalesce(l.total, 0)::text as ledger, coalesce(d.total, 0)::text as daily
      from (select kind, sum(amount_paise) as total from ledger_entries group by kind) l
      full join (select kind, sum(total_paise) as total from ledger_daily group by kind) d on d.kind = l.kind
     where coalesce(l.total, 0) <> coalesce(d.total, 0)`);
  const totals = await database.query<{ kind: string; ledger: string; kept: string }>(`
    select coalesce(l.kind, t.kind) as kind, coalesce(l.total, 0)::text || ' paise in ' || coalesce(l.n, 0) || ' rows' as ledger,
           coalesce(t.total, 0)::text || ' paise in ' || coalesce(t.n, 0) || ' rows' as kept
      from (select kind, sum(amount_paise) as total, count(*) as n from ledger_entries group by kind) l
      full join (select kind, sum(total_paise) as total, sum(entries) as n from ledger_totals group by kind) t on t.kind = l.kind
     where coalesce(l.total, 0) <> coalesce(t.total, 0) or coalesce(l.n, 0) <> coalesce(t.n, 0)`);
  // Links without a foreign key (drizzle/0017, 0021): every batch_id, payout ledger_entry_id and
  // ledger or payout member resolves.
  const links = await database.query<{ what: string }>(`
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
     where p.ledger_entry_id is not null and not exists (select 1 from ledger_entries l where l.id = p.ledger_entry_id)`);
  // Recoveries (issue 22): what a member owes is what the reversals could not take back less what
  // their credits have settled; each shortfall is settled at most in full; the recovery ledger rows
  // add up to what was settled.
  const recoveries = await database.query<{ what: string }>(`
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
  return [
    ...links.map((r) => r.what),
    ...recoveries.map((r) => r.what),
    ...balances.map((r) => `member ${r.user_id}: balance ${r.balance} paise, ledger sum ${r.ledger} paise`),
    ...daily.map((r) => `kind ${r.kind}: ledger ${r.ledger} paise, ledger_daily ${r.daily} paise`),
    ...totals.map((r) => `kind ${r.kind}: ledger ${r.ledger}, ledger_totals ${r.kept}`),
  ];
}

/**
 * `npm run verify-ledger`: checks the invariants, says what it checked and what it found, and
 * returns the process exit code (0 when they hold, 1 on any violation).
 */
export async function verifyLedger(database: Database, print: (line: string) => void): Promise<number> {
  const [size] = await database.query<{ members: string; rows: string; kinds: string }>(`
    select (select count(*) from users)::text as members, count(*)::text as rows, count(distinct kind)::text as kinds
      from ledger_entries`);
  const n = (v: string) => Number(v).toLocaleString('en-IN');
  print(`Checked ${n(size.members)} accounts and ${n(size.rows)} ledger rows of ${n(size.kinds)} kinds on ${database.kind}:`);
  print('  - every balance equals the sum of its ledger rows, and none is below zero');
  print('  - the per-day totals (ledger_daily) match the ledger, kind by kind');
  print('  - the all-time totals and row counts (ledger_totals) match the ledger, kind by kind');
  print('  - every recovery owed equals its open shortfalls, and the recovery rows what was recovered');
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
