import { paiseToRupees, sortParts, type SortValue } from '../../../contract/common.ts';
import type { REVENUE_SORTS, RevenueEntry } from '../../../contract/reports.ts';
import type { Database } from '../../db/client.ts';
import { isoText, pageWith } from '../../db/rows.ts';
import type { ledgerEntries } from '../../db/schema/money.ts';

/** A business day range in India time: [from 00:00 IST, to + 1 day 00:00 IST). */
export const IST_RANGE = `l.created_at >= ($1::date)::timestamp at time zone 'Asia/Kolkata'
  and l.created_at < ($2::date + 1)::timestamp at time zone 'Asia/Kolkata'`;

export const containsPattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
const NAME_MATCH = (n: number) => `(lower(u.full_name) like $${n} or lower(coalesce(u.username, '')) like $${n})`;

export interface RevenueFilters {
  fromDate: string;
  toDate: string;
  userName?: string;
}

/** A fee as the statements give it: the debit shown positive, the time as ISO text (isoText). */
type RevenueRow = Pick<typeof ledgerEntries.$inferSelect, 'id' | 'userId'> & { userName: string; paise: number; createdAt: string };

const toEntry = (r: RevenueRow): RevenueEntry => ({
  id: r.id,
  dateTime: r.createdAt,
  amount: paiseToRupees(r.paise),
  userName: r.userName,
  userId: r.userId,
});

const FEE_COLUMNS = `l.id, l.user_id as "userId", coalesce(u.username, u.full_name) as "userName", -l.amount_paise as paise,
  ${isoText('l.created_at')} as "createdAt"`;

type DayTotal = { day: string; paise: number; n: number };

export type RevenueSort = SortValue<(typeof REVENUE_SORTS)[number]>;

/**
 * The page's order. A fee is a debit shown positive, so the shown amount ascending is the stored
 * amount descending: the partial index ledger_fee_amount_id_idx (amount_paise, id) serves both.
 */
function revenueOrder(sort: RevenueSort): string {
  const { key, desc } = sortParts(sort);
  if (key === 'amount') return desc ? 'l.amount_paise asc, l.id asc' : 'l.amount_paise desc, l.id desc';
  // By member name (issue 24): the range's fees sorted top-N by lower(full_name) as users_name_sort_idx keeps it.
  if (key === 'userName') return desc ? 'lower(u.full_name) desc, l.id desc' : 'lower(u.full_name) asc, l.id asc';
  return desc ? 'l.created_at desc, l.id desc' : 'l.created_at asc, l.id asc';
}

/**
 * Revenue = membership fees (ledger kind membership_fee, debits), shown positive: the page and its
 * day totals in one statement (db/rows.ts pageWith).
 */
export async function revenuePage(database: Database, f: RevenueFilters, sort: RevenueSort, page: number, limit: number) {
  const params: unknown[] = [f.fromDate, f.toDate, limit, (page - 1) * limit];
  if (f.userName) params.push(containsPattern(f.userName));
  const { rows, extra: days } = await pageWith<RevenueRow, DayTotal[]>(database, {
    text: (column) => `
      select ${FEE_COLUMNS}, ${column}
        from ledger_entries l join users u on u.user_id = l.user_id
       where l.kind = 'membership_fee' and ${IST_RANGE} ${f.userName ? `and ${NAME_MATCH(5)}` : ''}
       order by ${revenueOrder(sort)}
       limit $3 offset $4`,
    params,
  }, (dayParams, alone) => {
    // Totals per day when the whole range is asked for: the amount is the books' membership
    // revenue account's movement (book_daily, issue 25), the count the fee lines (ledger_daily),
    // both summing their shards; a user-name filter has to read the range's rows.
    // $1 and $2 are the range in both (the page's first two parameters).
    if (alone) dayParams.push(f.fromDate, f.toDate);
    if (!f.userName) {
      return `select d.day::text as day, coalesce(b.paise, 0)::int8 as paise, d.n
                from (select day, sum(entries)::int8 as n from ledger_daily
                       where kind = 'membership_fee' and day between $1::date and $2::date group by day) d
                left join (select day, sum(total_paise) as paise from book_daily
                            where account = 'membership_revenue' and day between $1::date and $2::date group by day) b on b.day = d.day
               order by d.day`;
    }
    const pattern = alone ? dayParams.push(containsPattern(f.userName)) : 5;
    return `select (l.created_at at time zone 'Asia/Kolkata')::date::text as day, (-sum(l.amount_paise))::int8 as paise,
                   count(*)::int8 as n
              from ledger_entries l join users u on u.user_id = l.user_id
             where l.kind = 'membership_fee' and ${IST_RANGE} and ${NAME_MATCH(pattern)}
             group by 1 order by 1`;
  });
  const totalPaise = days.reduce((s, d) => s + Number(d.paise), 0);
  return {
    data: rows.map(toEntry),
    totalAmount: paiseToRupees(totalPaise),
    count: days.reduce((s, d) => s + Number(d.n), 0),
    daily: days.map((d) => ({ date: d.day, amount: paiseToRupees(Number(d.paise)) })),
  };
}

/** An export batch's fee, with its time as the database writes it (`created_at::text`), where the next batch starts. */
type RevenueBatchRow = RevenueRow & { cursorAt: string };

/** Where an export batch ended: the last fee's time as the database wrote it (to the microsecond) and its id. */
export interface RevenueKeyset {
  createdAt: string;
  id: number;
}

/**
 * One keyset batch of the range's fees for the CSV export, newest first, and where the next one
 * starts. The keyset carries the time as text to the microsecond: the time as shown (milliseconds)
 * is earlier than the row's own, and the fees after it in the same millisecond (one transaction's
 * fees share its time) fell out of the next batch.
 */
export async function revenueBatch(database: Database, f: RevenueFilters, after: RevenueKeyset | null, size: number) {
  const params: unknown[] = [f.fromDate, f.toDate, size, after?.createdAt ?? null, after?.id ?? 0];
  if (f.userName) params.push(containsPattern(f.userName));
  const rows = await database.query<RevenueBatchRow>(`
    select ${FEE_COLUMNS}, l.created_at::text as "cursorAt"
      from ledger_entries l join users u on u.user_id = l.user_id
     where l.kind = 'membership_fee' and ${IST_RANGE} ${f.userName ? `and ${NAME_MATCH(6)}` : ''}
       and ($4::text is null or (l.created_at, l.id) < ($4::text::timestamptz, $5::int8))
     order by l.created_at desc, l.id desc
     limit $3`, params);
  const last = rows.at(-1);
  return { rows: rows.map(toEntry), next: rows.length === size && last ? { createdAt: last.cursorAt, id: Number(last.id) } : null };
}
