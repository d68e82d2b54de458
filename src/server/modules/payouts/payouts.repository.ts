import { paiseToRupees } from '../../../contract/common.ts';
import type { Database } from '../../db/client.ts';

export interface PayoutFilters {
  fromDate?: string;
  toDate?: string;
  status?: 'Success' | 'Failure';
  userName?: string;
}

interface PayoutRow {
  id: number;
  user_id: number;
  user_name: string;
  amount_paise: number;
  date: string;
  status: 'Success' | 'Failure';
  paid_at: Date | string | null;
}

const toPayout = (r: PayoutRow) => ({
  id: Number(r.id),
  userId: Number(r.user_id),
  userName: r.user_name,
  amount: paiseToRupees(r.amount_paise),
  date: r.date,
  status: r.status,
  paidAt: r.paid_at === null ? null : new Date(r.paid_at).toISOString(),
});

/** `like` pattern for a name fragment, with the wildcards of the input escaped. */
export const containsPattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;

/** WHERE clauses and params for the filters; `withStatus` false leaves the status out (for the cards). */
function where(f: PayoutFilters, withStatus: boolean, params: unknown[]): string {
  const clauses: string[] = [];
  const add = (clause: string, value: unknown) => {
    params.push(value);
    clauses.push(clause.replaceAll('?', `$${params.length}`));
  };
  if (f.fromDate) add('p.payout_date >= ?::date', f.fromDate);
  if (f.toDate) add('p.payout_date <= ?::date', f.toDate);
  if (withStatus && f.status) add('p.status = ?', f.status);
  if (f.userName) add("(lower(u.full_name) like ? or lower(coalesce(u.username, '')) like ?)", containsPattern(f.userName));
  return clauses.length ? `where ${clauses.join(' and ')}` : '';
}

/** The date range over the rollup; days whose payouts all moved to another status are left out. */
function rollupWhere(f: PayoutFilters, params: unknown[]): string {
  const clauses = ['d.payouts <> 0'];
  if (f.fromDate) {
    params.push(f.fromDate);
    clauses.push(`d.day >= $${params.length}::date`);
  }
  if (f.toDate) {
    params.push(f.toDate);
    clauses.push(`d.day <= $${params.length}::date`);
  }
  return `where ${clauses.join(' and ')}`;
}

export async function listPayouts(database: Database, f: PayoutFilters, page: number, limit: number) {
  const params: unknown[] = [];
  const filter = where(f, true, params);
  params.push(limit, (page - 1) * limit);
  const rows = await database.query<PayoutRow>(`
    select p.id, p.user_id, coalesce(u.username, u.full_name) as user_name, p.amount_paise, p.payout_date::text as date,
           p.status, p.paid_at
      from daily_payouts p join users u on u.user_id = p.user_id
      ${filter}
     order by p.payout_date desc, p.id desc
     limit $${params.length - 1} offset $${params.length}`, params);

  // The cards, the chart and the paging total in one pass: from the trigger-kept day rollup
  // (payouts_daily: a month is ~60 rows), or, with a name filter, over the range's payouts.
  const aggParams: unknown[] = [];
  const groups = await database.query<{ date: string; status: 'Success' | 'Failure'; n: string; paise: string }>(
    f.userName
      ? `select p.payout_date::text as date, p.status, count(*)::text as n, sum(p.amount_paise)::text as paise
           from daily_payouts p join users u on u.user_id = p.user_id
           ${where(f, false, aggParams)}
          group by p.payout_date, p.status
          order by p.payout_date`
      : `select d.day::text as date, d.status, d.payouts::text as n, d.total_paise::text as paise
           from payouts_daily d
          ${rollupWhere(f, aggParams)}
          order by d.day`,
    aggParams,
  );

  const totals = { count: 0, amount: 0, successful: 0, failed: 0 };
  const daily = new Map<string, { date: string; successful: number; failed: number }>();
  let total = 0;
  let paise = 0;
  for (const g of groups) {
    const n = Number(g.n);
    totals.count += n;
    paise += Number(g.paise);
    if (g.status === 'Success') totals.successful += n;
    else totals.failed += n;
    if (!f.status || f.status === g.status) total += n;
    const day = daily.get(g.date) ?? { date: g.date, successful: 0, failed: 0 };
    if (g.status === 'Success') day.successful += n;
    else day.failed += n;
    daily.set(g.date, day);
  }
  totals.amount = paiseToRupees(paise);
  return { data: rows.map(toPayout), total, totals, daily: [...daily.values()] };
}

export interface PayoutKeyset {
  date: string;
  id: number;
}

/** One keyset batch of payouts for the CSV export, in the table's order. */
export async function payoutsBatch(database: Database, f: PayoutFilters, after: PayoutKeyset | null, size: number) {
  const params: unknown[] = [];
  let filter = where(f, true, params);
  if (after) {
    params.push(after.date, after.id);
    const keyset = `(p.payout_date, p.id) < ($${params.length - 1}::date, $${params.length}::int8)`;
    filter = filter ? `${filter} and ${keyset}` : `where ${keyset}`;
  }
  params.push(size);
  const rows = await database.query<PayoutRow>(`
    select p.id, p.user_id, coalesce(u.username, u.full_name) as user_name, p.amount_paise, p.payout_date::text as date,
           p.status, p.paid_at
      from daily_payouts p join users u on u.user_id = p.user_id
      ${filter}
     order by p.payout_date desc, p.id desc
     limit $${params.length}`, params);
  return rows.map(toPayout);
}
