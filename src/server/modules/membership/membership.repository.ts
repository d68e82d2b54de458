import { and, count, eq, gte, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { paiseToRupees } from '../../../contract/common.ts';
import { sortParts, type SortValue } from '../../../contract/common.ts';
import type { Member, MembershipCsvFilter, MEMBERSHIP_SORTS } from '../../../contract/membership.ts';
import type { Database, Db } from '../../db/client.ts';
import { iso } from '../../db/rows.ts';
import { membershipPlans } from '../../db/schema/income.ts';
import { memberships, users } from '../../db/schema/members.ts';
import { counterTotal } from '../../db/counters.ts';
import { orderBy } from '../../lib/order.ts';

const memberFields = {
  userId: users.userId,
  fullName: users.fullName,
  email: users.email,
  phone: users.phone,
  status: users.status,
  balancePaise: users.balancePaise,
  amountPaise: memberships.amountPaise,
  createdAt: memberships.createdAt,
  planName: membershipPlans.name,
  membershipStatus: memberships.status,
  earnedPaise: memberships.earnedPaise,
  dailyPaise: memberships.dailyPaise,
};

/** planName comes from a left join: null for a membership without a plan. */
type MemberRow = { [K in Exclude<keyof typeof memberFields, 'planName'>]: (typeof memberFields)[K]['_']['data'] } & { planName: string | null };

const toMember = (r: MemberRow): Member => ({
  _id: String(r.userId),
  id: r.userId,
  userId: r.userId,
  fullName: r.fullName,
  name: r.fullName,
  email: r.email,
  phone: r.phone,
  status: r.status,
  amount: paiseToRupees(r.amountPaise),
  currentAmount: paiseToRupees(r.balancePaise),
  dateTime: iso(r.createdAt),
  planName: r.planName,
  membershipStatus: r.membershipStatus,
  earned: paiseToRupees(r.earnedPaise),
  dailyAmount: paiseToRupees(r.dailyPaise),
});

export interface MembershipFilter {
  fromDate?: string;
  toDate?: string;
  sort: SortValue<(typeof MEMBERSHIP_SORTS)[number]>;
  page: number;
  limit: number;
}

/** Midnight in India time starting a yyyy-mm-dd day (`days` later). */
const istMidnight = (day: string, days = 0) => sql`((${day})::date + ${days}::int)::timestamp at time zone 'Asia/Kolkata'`;

/** The sort keys' columns; with the id tie-break each has its index (memberships_*_id_idx, user_id unique). */
const SORT_COLUMNS = { dateTime: memberships.createdAt, userId: memberships.userId, amount: memberships.amountPaise };

/**
 * Memberships of live members, newest first unless sorted otherwise. fromDate/toDate are whole days in India time
 * (yyyy-mm-dd after parsing); the range is a created_at range on memberships_created_at_id_idx. The
 * unfiltered total is the trigger-kept counter.
 */
export async function listMembers(db: Db, f: MembershipFilter): Promise<{ data: Member[]; total: number }> {
  const conditions: SQL[] = [isNull(users.deletedAt)];
  if (f.fromDate) conditions.push(gte(memberships.createdAt, istMidnight(f.fromDate)));
  if (f.toDate) conditions.push(lt(memberships.createdAt, istMidnight(f.toDate, 1)));
  const where = and(...conditions);
  const [rows, [counted]] = await Promise.all([
    db.select(memberFields).from(memberships).innerJoin(users, eq(users.userId, memberships.userId))
      .leftJoin(membershipPlans, eq(membershipPlans.planId, memberships.planId)).where(where)
      .orderBy(...orderBy(f.sort, SORT_COLUMNS, memberships.id)).limit(f.limit).offset((f.page - 1) * f.limit),
    f.fromDate || f.toDate
      ? db.select({ n: count() }).from(memberships).innerJoin(users, eq(users.userId, memberships.userId)).where(where)
      : counterTotal(db, 'membership_users'),
  ]);
  return { data: rows.map(toMember), total: counted?.n ?? 0 };
}

/** Where a CSV batch ended: the sort column's value as the database wrote it (text) and the membership id. */
export interface MembershipKeyset {
  value: string;
  id: number;
}

/** The sort keys' SQL for the export: the column, and how a cursor's text goes back into it. */
const CSV_SORT = {
  dateTime: { column: 'm.created_at', cast: 'timestamptz' },
  userId: { column: 'm.user_id', cast: 'int8' },
  amount: { column: 'm.amount_paise', cast: 'int8' },
} as const;

export interface MembershipCsvRow {
  id: number;
  userId: number;
  fullName: string;
  email: string;
  phone: string;
  status: boolean;
  planName: string | null;
  membershipStatus: string;
  amountPaise: number;
  balancePaise: number;
  earnedPaise: number;
  dailyPaise: number;
  /** India time with its offset, e.g. 2026-11-25T19:07:00+05:30. */
  istTime: string;
  cursor: string;
}

/**
 * One keyset batch of the Membership list for the CSV, in the list's order: each sort key with the
 * id tie-break walks its index (memberships_created_at_id_idx, memberships_amount_id_idx, the
 * unique user_id) from the cursor on, so every batch costs the same however deep it is.
 */
export async function membersBatch(database: Database, f: MembershipCsvFilter, after: MembershipKeyset | null, size: number) {
  const params: unknown[] = [];
  const p = (value: unknown) => `$${params.push(value)}`;
  const { key, desc } = sortParts(f.sort);
  const { column, cast } = CSV_SORT[key];
  const dir = desc ? 'desc' : 'asc';
  const where = ['u.deleted_at is null'];
  if (f.fromDate) where.push(`m.created_at >= (${p(f.fromDate)}::date)::timestamp at time zone 'Asia/Kolkata'`);
  if (f.toDate) where.push(`m.created_at < (${p(f.toDate)}::date + 1)::timestamp at time zone 'Asia/Kolkata'`);
  if (after) where.push(`(${column}, m.id) ${desc ? '<' : '>'} (${p(after.value)}::text::${cast}, ${p(after.id)}::int8)`);
  const rows = await database.query<Record<string, unknown>>(`
    select m.id, m.user_id as "userId", u.full_name as "fullName", u.email, u.phone, u.status,
           p.name as "planName", m.status as "membershipStatus", m.amount_paise::int8 as "amountPaise",
           u.balance_paise::int8 as "balancePaise", m.earned_paise::int8 as "earnedPaise", m.daily_paise::int8 as "dailyPaise",
           to_char(m.created_at at time zone 'Asia/Kolkata', 'YYYY-MM-DD"T"HH24:MI:SS"+05:30"') as "istTime",
           ${column}::text as cursor
      from memberships m
      join users u on u.user_id = m.user_id
      left join membership_plans p on p.plan_id = m.plan_id
     where ${where.join(' and ')}
     order by ${column} ${dir}, m.id ${dir}
     limit ${p(size)}`, params);
  const data = rows.map((r) => ({
    ...(r as unknown as MembershipCsvRow),
    id: Number(r.id), userId: Number(r.userId), amountPaise: Number(r.amountPaise), balancePaise: Number(r.balancePaise),
    earnedPaise: Number(r.earnedPaise), dailyPaise: Number(r.dailyPaise),
  }));
  const last = data.at(-1);
  return { rows: data, next: data.length === size && last ? { value: last.cursor, id: last.id } : null };
}
