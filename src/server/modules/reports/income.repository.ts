import { paiseToRupees } from '../../../contract/common.ts';
import { REWARD_TYPES, royaltyDisplayLevel } from '../../../contract/reports.ts';
import type { Database } from '../../db/client.ts';
import { containsPattern } from './revenue.repository.ts';

/** Royalty or one reward type over a range of batch run dates, optionally one user name. */
export interface IncomeFilters {
  kind: 'royalty' | 'reward';
  rewardType?: string;
  fromDate: string;
  toDate: string;
  userName?: string;
}

interface BatchRow {
  batch_id: number;
  kind: 'royalty' | 'reward';
  reward_type: string | null;
  run_date: string;
}

const NAME_MATCH = (n: number) => `(lower(u.full_name) like $${n} or lower(coalesce(u.username, '')) like $${n})`;

/** The batches of the range: a handful per month, read through income_batches_kind_date_idx. */
export async function batchesInRange(database: Database, f: IncomeFilters): Promise<BatchRow[]> {
  return database.query<BatchRow>(`
    select batch_id, kind, reward_type, run_date::text as run_date from income_batches
     where kind = $1 and run_date between $2::date and $3::date and ($4::text is null or reward_type = $4)
     order by run_date, batch_id`, [f.kind, f.fromDate, f.toDate, f.rewardType ?? null]);
}

function sourceOf(b: BatchRow): string {
  if (b.kind === 'royalty') return 'Royalty Income';
  return REWARD_TYPES.find((t) => t.value === b.reward_type)?.label ?? 'Reward';
}

/**
 * The whole calendar months a range covers exactly (first day of a month to last day of a month),
 * as their first days; null when either end falls inside a month.
 */
export function wholeMonths(fromDate: string, toDate: string): string[] | null {
  const [fy, fm, fd] = fromDate.split('-').map(Number);
  const [ty, tm, td] = toDate.split('-').map(Number);
  const lastDay = new Date(Date.UTC(ty, tm, 0)).getUTCDate();
  if (fd !== 1 || td !== lastDay) return null;
  const months: string[] = [];
  for (let y = fy, m = fm; y < ty || (y === ty && m <= tm); m === 12 ? ((y += 1), (m = 1)) : (m += 1)) {
    months.push(`${y}-${String(m).padStart(2, '0')}-01`);
  }
  return months;
}

interface UserTotalRow { user_id: number; paise: string; n: string }
interface Totals { paise: string; n: string; users: string }

/**
 * Totals and one page of receivers (largest income first). A range of whole months without a name
 * filter (the screens' default: the current month) reads the income_month_* rollups (drizzle/0007);
 * any other range groups the batches' ledger credits, read through ledger_batch_user_idx.
 */
async function receiverTotals(database: Database, f: IncomeFilters, ids: number[], page: number, limit: number) {
  const months = f.userName ? null : wholeMonths(f.fromDate, f.toDate);
  const offset = (page - 1) * limit;
  if (months) {
    const key = f.kind === 'royalty' ? '' : f.rewardType;
    if (key !== undefined) {
      const one = months.length === 1;
      const [[totals], users] = await Promise.all([
        database.query<Totals>(one
          ? `select coalesce(sum(total_paise), 0)::text as paise, coalesce(sum(entries), 0)::text as n, coalesce(sum(users), 0)::text as users
               from income_month_totals where kind = $1 and reward_key = $2 and month = any($3::date[])`
          : `select coalesce(sum(total_paise), 0)::text as paise, coalesce(sum(entries), 0)::text as n, count(distinct user_id)::text as users
               from income_month_users where kind = $1 and reward_key = $2 and month = any($3::date[])`,
        [f.kind, key, months]),
        database.query<UserTotalRow>(one
          ? `select user_id, total_paise::text as paise, entries::text as n from income_month_users
              where kind = $1 and reward_key = $2 and month = $3::date
              order by total_paise desc nulls last, user_id limit $4 offset $5`
          : `select user_id, sum(total_paise)::text as paise, sum(entries)::text as n from income_month_users
              where kind = $1 and reward_key = $2 and month = any($3::date[])
              group by user_id order by sum(total_paise) desc, user_id limit $4 offset $5`,
        [f.kind, key, one ? months[0] : months, limit, offset]),
      ]);
      return { totals, users };
    }
  }
  const name = f.userName ? containsPattern(f.userName) : null;
  const join = name ? 'join users u on u.user_id = l.user_id' : '';
  const [[totals], users] = await Promise.all([
    database.query<Totals>(`
      select coalesce(sum(l.amount_paise), 0)::text as paise, count(*)::text as n, count(distinct l.user_id)::text as users
        from ledger_entries l ${join}
       where l.batch_id = any($1::int[]) ${name ? `and ${NAME_MATCH(2)}` : ''}`, name ? [ids, name] : [ids]),
    database.query<UserTotalRow>(`
      select l.user_id, sum(l.amount_paise)::text as paise, count(*)::text as n
        from ledger_entries l ${join}
       where l.batch_id = any($1::int[]) ${name ? `and ${NAME_MATCH(4)}` : ''}
       group by l.user_id order by sum(l.amount_paise) desc, l.user_id
       limit $2 offset $3`, name ? [ids, limit, offset, name] : [ids, limit, offset]),
  ]);
  return { totals, users };
}

/**
 * The report: totals over every receiver of the range's batches, one page of users grouped by
 * user (largest income first), and the batches with their receivers among that page's users.
 */
export async function incomeReport(database: Database, f: IncomeFilters, page: number, limit: number) {
  const batches = await batchesInRange(database, f);
  const ids = batches.map((b) => Number(b.batch_id));
  if (ids.length === 0) return { data: [], users: [], totalAmount: 0, totalUsers: 0, transactions: 0 };
  const { totals, users: totalsByUser } = await receiverTotals(database, f, ids, page, limit);
  const pageIds = totalsByUser.map((u) => Number(u.user_id));
  const [people, receivers] = pageIds.length === 0 ? [[], []] : await Promise.all([
    database.query<{ user_id: number; user_name: string; rank_name: string | null }>(`
      select u.user_id, coalesce(u.username, u.full_name) as user_name, r.name as rank_name
        from users u left join ranks r on r.rank_id = u.rank_id where u.user_id = any($1::int8[])`, [pageIds]),
    database.query<{
      batch_id: number; user_id: number; user_name: string; rank_name: string | null; amount_paise: number; created_at: Date | string;
    }>(`
      select l.batch_id, l.user_id, coalesce(u.username, u.full_name) as user_name, r.name as rank_name, l.amount_paise, l.created_at
        from ledger_entries l join users u on u.user_id = l.user_id left join ranks r on r.rank_id = u.rank_id
       where l.user_id = any($2::int8[]) and l.batch_id = any($1::int[])
       order by l.created_at, l.id`, [ids, pageIds]),
  ]);
  const person = new Map(people.map((p) => [Number(p.user_id), p]));
  const users = totalsByUser.map((u) => ({ ...u, user_name: person.get(Number(u.user_id))?.user_name ?? '', rank_name: person.get(Number(u.user_id))?.rank_name ?? null }));

  return {
    data: batches.map((b) => ({
      batchId: Number(b.batch_id),
      kind: b.kind,
      rewardType: b.reward_type,
      runDate: b.run_date,
      source: sourceOf(b),
      status: 'Paid',
      receivers: receivers
        .filter((r) => Number(r.batch_id) === Number(b.batch_id))
        .map((r) => {
          const amount = paiseToRupees(r.amount_paise);
          return {
            userId: Number(r.user_id),
            userName: r.user_name,
            amount,
            rankName: r.rank_name,
            dateTime: new Date(r.created_at).toISOString(),
            level: royaltyDisplayLevel(r.rank_name, amount),
          };
        }),
    })),
    users: users.map((u) => {
      const amount = paiseToRupees(u.paise);
      return {
        userId: Number(u.user_id),
        userName: u.user_name,
        rankName: u.rank_name,
        level: royaltyDisplayLevel(u.rank_name, amount),
        amount,
        transactions: Number(u.n),
      };
    }),
    totalAmount: paiseToRupees(totals.paise),
    totalUsers: Number(totals.users),
    transactions: Number(totals.n),
  };
}

export interface IncomeKeyset {
  batchIndex: number;
  id: number;
}

/**
 * One CSV batch: the receivers of the range's batches, batch by batch, each in ledger-id order
 * (keyset), so the export never aggregates or holds the whole range.
 */
export async function incomeCsvBatch(
  database: Database, f: IncomeFilters, batches: BatchRow[], after: IncomeKeyset | null, size: number,
) {
  let { batchIndex, id } = after ?? { batchIndex: 0, id: 0 };
  while (batchIndex < batches.length) {
    const b = batches[batchIndex];
    const params: unknown[] = [b.batch_id, id, size];
    if (f.userName) params.push(containsPattern(f.userName));
    const rows = await database.query<{
      id: number; user_id: number; user_name: string; rank_name: string | null; amount_paise: number; created_at: Date | string;
    }>(`
      select l.id, l.user_id, coalesce(u.username, u.full_name) as user_name, r.name as rank_name, l.amount_paise, l.created_at
        from ledger_entries l join users u on u.user_id = l.user_id left join ranks r on r.rank_id = u.rank_id
       where l.batch_id = $1 and l.id > $2 ${f.userName ? `and ${NAME_MATCH(4)}` : ''}
       order by l.id limit $3`, params);
    if (rows.length > 0) {
      const next = rows.length === size ? { batchIndex, id: Number(rows[rows.length - 1].id) } : batchIndex + 1 < batches.length
        ? { batchIndex: batchIndex + 1, id: 0 } : null;
      return {
        rows: rows.map((r) => {
          const amount = paiseToRupees(r.amount_paise);
          return [Number(b.batch_id), sourceOf(b), b.run_date, Number(r.user_id), r.user_name, r.rank_name ?? 'No Rank',
            `Level ${royaltyDisplayLevel(r.rank_name, amount)}`, amount.toFixed(2), new Date(r.created_at).toISOString()];
        }),
        cursor: next,
      };
    }
    batchIndex += 1;
    id = 0;
  }
  return { rows: [], cursor: null };
}
