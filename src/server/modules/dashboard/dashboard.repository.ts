import type { DashboardDay, DashboardStats } from '../../../contract/dashboard.ts';
import type { Database } from '../../db/client.ts';
import type { bookDaily } from '../../db/schema/books.ts';
import { statCounters } from '../../db/schema/system.ts';

const COUNTERS = {
  users_total: 'totalUsers', users_active: 'activeUsers', users_inactive: 'inactiveUsers', membership_users: 'membershipUsers',
} as const;

/**
 * Kept by triggers in the writers' transactions (drizzle/functions/stat_counters.sql): no count over the users table.
 * A measured hot path: plain SQL the client prepares, typed from the table.
 */
export async function stats(database: Database): Promise<DashboardStats> {
  const rows = await database.query<Pick<typeof statCounters.$inferSelect, 'name' | 'value'>>(
    `select name, sum(value)::int8 as value from stat_counters where name = any($1::text[]) group by name`,
    [Object.keys(COUNTERS)],
  );
  const out: DashboardStats = { totalUsers: 0, activeUsers: 0, inactiveUsers: 0, membershipUsers: 0 };
  for (const r of rows) out[COUNTERS[r.name as keyof typeof COUNTERS]] = r.value;
  return out;
}

/**
 * The last `days` business days (Asia/Kolkata) up to today. Revenue is the books' membership
 * revenue account's movement per day (book_daily, issue 25) and payouts come from their day rollup; new members (never staff) from the created_at index (one month of rows). A measured
 * hot path: plain SQL the client prepares (Drizzle's statements pass their values where
 * EXPLAIN_QUERIES cannot see them); int8 arrives as a number from both drivers.
 */
type Paise = (typeof bookDaily.$inferSelect)['totalPaise'];
/** A day of the charts: new members, membership revenue, payouts made and failed. */
type ChartDayRow = { date: string; new_members: number; revenue_paise: Paise; ok: number; failed: number };

export async function charts(database: Database, days: number): Promise<DashboardDay[]> {
  const rows = await database.query<ChartDayRow>(`
  with days as (
    select d::date as day
      from generate_series((now() at time zone 'Asia/Kolkata')::date - ($1::int - 1),
                           (now() at time zone 'Asia/Kolkata')::date, interval '1 day') d
  ),
  joined as (
    select (created_at at time zone 'Asia/Kolkata')::date as day, count(*) as n
      from users
     where not can_sign_in
       and created_at >= ((now() at time zone 'Asia/Kolkata')::date - ($1::int - 1))::timestamp at time zone 'Asia/Kolkata'
     group by 1
  ),
  revenue as (
    select day, sum(total_paise) as paise from book_daily
     where account = 'membership_revenue' and day >= (now() at time zone 'Asia/Kolkata')::date - ($1::int - 1)
     group by day
  ),
  payouts as (
    select day, sum(payouts) filter (where status = 'Success') as ok, sum(payouts) filter (where status = 'Failure') as failed
      from payouts_daily where day >= (now() at time zone 'Asia/Kolkata')::date - ($1::int - 1)
     group by day
  )
  select to_char(days.day, 'YYYY-MM-DD') as date, coalesce(joined.n, 0)::int8 as new_members,
         coalesce(revenue.paise, 0)::int8 as revenue_paise, coalesce(payouts.ok, 0)::int8 as ok,
         coalesce(payouts.failed, 0)::int8 as failed
    from days
    left join joined on joined.day = days.day
    left join revenue on revenue.day = days.day
    left join payouts on payouts.day = days.day
   order by days.day`, [days]);
  return rows.map((r) => ({
    date: r.date,
    newMembers: Number(r.new_members),
    revenue: Number(r.revenue_paise) / 100,
    payoutsSuccess: Number(r.ok),
    payoutsFailure: Number(r.failed),
  }));
}
