import { sql, type SQL } from 'drizzle-orm';
import { DEFAULT_INCOME_SETTINGS, percentToBp } from '../../../contract/income.ts';
import type { TdsSection } from '../../../contract/tax.ts';
import { rowsOf, type Db } from '../../db/client.ts';
import { isoDate } from '../../db/rows.ts';
import type { bookAccounts, bookDaily } from '../../db/schema/books.ts';
import type { tdsQuarterMembers, tdsQuarterTotals } from '../../db/schema/money.ts';
import { settingsTimeline } from '../income/settings.service.ts';

/**
 * The TDS report (issue 25, docs/tax.md). Which members have TDS in a quarter, and the quarter's
 * totals, come from the rollup tds_quarter_members / tds_quarter_totals (kept with the lines: by
 * the daily payout's chunk, by drizzle/functions/tds_quarters.sql for every other writer). A member's lines come from the ledger's `tds` lines
 * (negative; each written with its daily_payout line, same member, run and day) by
 * ledger_user_kind_created_idx, one member's range at a time. A line reversed with its run is
 * netted out by its reversal (ledger_reversal_of_uq), whenever the reversal was made. One row per
 * member, India day and run: the TDS deducted and the gross paid (the same run's daily_payout lines
 * that day, reversals netted too), and the section it was deducted under.
 */

/** The instant a day (yyyy-mm-dd, India) starts. */
const dayStart = (day: string) => sql`(${day}::date::timestamp at time zone 'Asia/Kolkata')`;
const dayAfter = (day: string) => sql`((${day}::date + 1)::timestamp at time zone 'Asia/Kolkata')`;

/**
 * The rates in force by day, as a VALUES list (from, to, with-PAN bp, without-PAN bp): the section of
 * a day's deduction is the rate it is nearer to. When both rates are the same it can't be told
 * that way, and the member's PAN now decides.
 */
async function ratesSql(db: Db): Promise<SQL> {
  const { versions } = await settingsTimeline(db);
  const spans: { from: string; to: string; pan: number; noPan: number }[] = [];
  let from = '1900-01-01';
  let current = DEFAULT_INCOME_SETTINGS;
  for (const v of versions) {
    spans.push({ from, to: v.from, pan: percentToBp(current.tdsPercent), noPan: percentToBp(current.tdsWithoutPanPercent) });
    from = v.from;
    current = v.settings;
  }
  spans.push({ from, to: '9999-12-31', pan: percentToBp(current.tdsPercent), noPan: percentToBp(current.tdsWithoutPanPercent) });
  return sql`rates(from_day, to_day, pan_bp, nopan_bp) as (values ${sql.join(
    spans.map((s) => sql`(${s.from}::date, ${s.to}::date, ${s.pan}::int8, ${s.noPan}::int8)`), sql`, `)})`;
}

/**
 * The lines of some members (`members` selects user_id), each member's by its own index range of
 * ledger_user_kind_created_idx. The range is also written as row comparisons on (kind, created_at),
 * which mean the same here but which only that index's (user_id, kind, created_at) can serve: the
 * statement is prepared, and after five runs PostgreSQL plans it once for any dates (a generic
 * plan), which otherwise took ledger_user_created_idx and read every line of the member's quarter
 * for its few `tds` ones (at 1,000,000 members: 73 ms instead of 1.2 ms; the bench's TDS page fell
 * from 6 ms to 67 ms after the fifth request on each connection).
 */
const ofMembers = (members: SQL, from: string, to: string) => sql`
  select l.id, l.user_id, l.run_id, l.amount_paise, l.created_at
    from (${members}) m
    cross join lateral (
      select x.id, x.user_id, x.run_id, x.amount_paise, x.created_at from ledger_entries x
       where x.user_id = m.user_id and x.kind = 'tds'
         and (x.kind, x.created_at) >= ('tds', ${dayStart(from)}) and (x.kind, x.created_at) < ('tds', ${dayAfter(to)})
         and x.reversal_of is null
    ) l`;

/** One row per member, day and run with TDS, from `lines`; the CTE chain ends in `rows`. */
async function rowsCte(db: Db, lines: SQL): Promise<SQL> {
  return sql`
    ${await ratesSql(db)},
    t as materialized (${lines}),
    n as (
      select t.user_id, t.run_id, (t.created_at at time zone 'Asia/Kolkata')::date as day,
             -(t.amount_paise + coalesce(r.amount_paise, 0)) as tds
        from t left join ledger_entries r on r.reversal_of = t.id
    ),
    g as (
      select user_id, run_id, day, sum(tds)::int8 as tds from n group by user_id, run_id, day having sum(tds) <> 0
    ),
    rows as (
      select g.user_id, g.run_id, g.day, g.tds, coalesce(p.gross, 0)::int8 as gross, u.full_name, u.pan,
             case
               when k.nopan_bp <> k.pan_bp and abs(g.tds * 10000 - coalesce(p.gross, 0) * k.nopan_bp) < abs(g.tds * 10000 - coalesce(p.gross, 0) * k.pan_bp)
                 then '206AA'
               when k.nopan_bp <> k.pan_bp then '194H'
               when u.pan is null then '206AA'
               else '194H'
             end as section
        from g
        join users u on u.user_id = g.user_id
        left join rates k on g.day >= k.from_day and g.day < k.to_day
        left join lateral (
          select sum(d.amount_paise + coalesce(dr.amount_paise, 0)) as gross
            from ledger_entries d left join ledger_entries dr on dr.reversal_of = d.id
           where d.user_id = g.user_id and d.kind = 'daily_payout' and d.reversal_of is null
             and d.created_at >= (g.day::timestamp at time zone 'Asia/Kolkata') and d.created_at < ((g.day + 1)::timestamp at time zone 'Asia/Kolkata')
             and (g.run_id is null or d.run_id = g.run_id)
        ) p on true
    )`;
}

export interface TdsDayRow {
  userId: number;
  name: string;
  pan: string | null;
  day: string;
  runId: number | null;
  tdsPaise: number;
  grossPaise: number;
  section: TdsSection;
}

type RawDayRow = { user_id: number; run_id: number | null; day: string | Date; tds: number; gross: number; full_name: string; pan: string | null; section: TdsSection };
const toDayRow = (r: RawDayRow): TdsDayRow => ({
  userId: Number(r.user_id), name: r.full_name, pan: r.pan, day: isoDate(r.day), runId: r.run_id === null ? null : Number(r.run_id),
  tdsPaise: Number(r.tds), grossPaise: Number(r.gross), section: r.section,
});

/** The day rows of the members `userIds` in the quarter. */
export async function dayRowsOf(db: Db, userIds: number[], from: string, to: string): Promise<TdsDayRow[]> {
  if (userIds.length === 0) return [];
  const members = sql`select unnest(${`{${userIds.join(',')}}`}::int8[]) as user_id`;
  const rows = rowsOf<RawDayRow>(await db.execute(sql`
    with ${await rowsCte(db, ofMembers(members, from, to))}
    select * from rows order by user_id, day, run_id nulls first`));
  return rows.map(toDayRow);
}

/** The rollup's key of a quarter (drizzle/functions/tds_quarters.sql): 2026 Q1 → 20261. */
export const quarterKey = (year: number, quarter: number) => year * 10 + quarter;

type QuarterMember = Pick<typeof tdsQuarterMembers.$inferSelect, 'userId'>;

/**
 * The CSV's batch: the day rows of the next `limit` members with TDS in the quarter after
 * `afterUserId` (the rollup's primary key in order, each member's lines by
 * ledger_user_kind_created_idx, so the whole export is one pass and never the quarter in memory).
 * Answers the rows and the last member id walked (null at the end).
 */
export async function dayRowsBatch(db: Db, key: number, afterUserId: number, limit: number, from: string, to: string) {
  const members = sql`
    select user_id from tds_quarter_members where quarter = ${key} and user_id > ${afterUserId} order by user_id limit ${limit}`;
  const ids = rowsOf<QuarterMember>(await db.execute(sql`select user_id as "userId" from (${members}) m`)).map((r) => Number(r.userId));
  const rows = await dayRowsOf(db, ids, from, to);
  return { rows, last: ids.length < limit ? null : ids[ids.length - 1] };
}

/** A page of the members with TDS in the quarter, by user id: one range of the rollup's primary key. */
export async function membersPage(db: Db, key: number, page: number, limit: number): Promise<number[]> {
  const rows = rowsOf<QuarterMember>(await db.execute(sql`
    select user_id as "userId" from tds_quarter_members where quarter = ${key}
     order by user_id limit ${limit} offset ${(page - 1) * limit}`));
  return rows.map((r) => Number(r.userId));
}

type QuarterTotalsRow = Pick<typeof tdsQuarterTotals.$inferSelect, 'members' | 'grossPaise' | 'tdsPaise' | 'tdsWithoutPanPaise'>;

/** The quarter's totals: members, gross, TDS, and the TDS deducted at the no-PAN rate (the rollup's shards added up). */
export async function quarterTotals(db: Db, key: number) {
  const [row] = rowsOf<QuarterTotalsRow>(await db.execute(sql`
    select coalesce(sum(members), 0)::int8 as members, coalesce(sum(gross_paise), 0)::int8 as "grossPaise",
           coalesce(sum(tds_paise), 0)::int8 as "tdsPaise", coalesce(sum(tds_without_pan_paise), 0)::int8 as "tdsWithoutPanPaise"
      from tds_quarter_totals where quarter = ${key}`));
  return {
    members: Number(row.members), grossPaise: Number(row.grossPaise), tdsPaise: Number(row.tdsPaise), tdsWithoutPanPaise: Number(row.tdsWithoutPanPaise),
  };
}

// ---- Monthly statement ----

export interface StatementAccountRow {
  code: string;
  name: string;
  type: 'income' | 'expense';
  movementPaise: number;
  legs: number;
}

/** An income or expense account with its movement and legs over a period (book_daily). */
type AccountMovementRow = Pick<typeof bookAccounts.$inferSelect, 'code' | 'name'> & {
  type: StatementAccountRow['type'];
  movement: (typeof bookDaily.$inferSelect)['totalPaise'];
  legs: (typeof bookDaily.$inferSelect)['legs'];
};

/**
 * Each income and expense account of the chart with its movement over the days `from`..`to`
 * (credit-positive, summed over book_daily's days and shards: one primary-key range per account).
 */
export async function accountMovements(db: Db, from: string, to: string): Promise<StatementAccountRow[]> {
  const rows = rowsOf<AccountMovementRow>(await db.execute(sql`
    select a.code, a.name, a.type, coalesce(m.movement, 0)::int8 as movement, coalesce(m.legs, 0)::int8 as legs
      from book_accounts a
      left join lateral (
        select sum(d.total_paise) as movement, sum(d.legs) as legs from book_daily d
         where d.account = a.code and d.day >= ${from}::date and d.day <= ${to}::date
      ) m on true
     where a.type in ('income', 'expense')
     order by case a.type when 'income' then 0 else 1 end, a.position, a.code`));
  return rows.map((r) => ({ code: r.code, name: r.name, type: r.type, movementPaise: Number(r.movement), legs: Number(r.legs) }));
}
