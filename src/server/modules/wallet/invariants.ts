import type { Database } from '../../db/client.ts';

/**
 * The money invariants the tests check after every test: each member's cached balance equals
 * the sum of their ledger rows and is never negative, and the per-day and all-time totals match
 * the ledger.
 * Returns the violations, so a failing test names the member.
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
  return [
    ...balances.map((r) => `member ${r.user_id}: balance ${r.balance} paise, ledger sum ${r.ledger} paise`),
    ...daily.map((r) => `kind ${r.kind}: ledger ${r.ledger} paise, ledger_daily ${r.daily} paise`),
    ...totals.map((r) => `kind ${r.kind}: ledger ${r.ledger}, ledger_totals ${r.kept}`),
  ];
}
