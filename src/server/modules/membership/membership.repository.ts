import { and, asc, count, desc, eq, gte, isNull, lt, not, sql, type SQL } from 'drizzle-orm';
import { paiseToRupees } from '../../../contract/common.ts';
import { sortParts, type SortValue } from '../../../contract/common.ts';
import type { Member, MembershipCsvFilter, MEMBERSHIP_SORTS } from '../../../contract/membership.ts';
import type { Database, Db } from '../../db/client.ts';
import { iso } from '../../db/rows.ts';
import { membershipPlans } from '../../db/schema/income.ts';
import { memberships, users } from '../../db/schema/members.ts';
import { counterTotal } from '../../db/counters.ts';

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

/**
 * Each sort key's column and its unique tie-break, as its index holds them: memberships_created_at_id_idx,
 * memberships_amount_id_idx, the unique user_id; users_name_sort_idx (lower(full_name), user_id) of live
 * members. A member has at most one membership, so user_id is as unique a tie-break as the
 * membership's id. The balance (Current Amount) has no index on purpose: every money movement
 * updates it, and an index on it would make each of those updates non-HOT (drizzle/0017), a cost on
 * the daily payout and on every recharge; a page sorted by it is a top-N sort over the list's rows
 * (decisions.md, issue 24).
 */
const SORT_COLUMNS = {
  dateTime: [memberships.createdAt, memberships.id],
  userId: [memberships.userId],
  amount: [memberships.amountPaise, memberships.id],
  name: [sql`lower(${users.fullName})`, users.userId],
  currentAmount: [users.balancePaise, users.userId],
} as const;

function orderOf(sort: MembershipFilter['sort']): SQL[] {
  const { key, desc: down } = sortParts(sort);
  return SORT_COLUMNS[key].map((c) => (down ? desc(c) : asc(c)));
}

/**
 * Memberships of live members, newest first unless sorted otherwise. fromDate/toDate are whole days in India time
 * (yyyy-mm-dd after parsing); the range is a created_at range on memberships_created_at_id_idx. The
 * unfiltered total is the trigger-kept counter.
 */
export async function listMembers(db: Db, f: MembershipFilter): Promise<{ data: Member[]; total: number }> {
  // Live members only: staff are not members (their memberships are in no count either, stat_counters.sql).
  const conditions: SQL[] = [isNull(users.deletedAt), not(users.canSignIn)];
  if (f.fromDate) conditions.push(gte(memberships.createdAt, istMidnight(f.fromDate)));
  if (f.toDate) conditions.push(lt(memberships.createdAt, istMidnight(f.toDate, 1)));
  const where = and(...conditions);
  const base = db.select(memberFields).from(memberships).innerJoin(users, eq(users.userId, memberships.userId));
  const [rows, [counted]] = await Promise.all([
    base.leftJoin(membershipPlans, eq(membershipPlans.planId, memberships.planId)).where(where)
      .orderBy(...orderOf(f.sort)).limit(f.limit).offset((f.page - 1) * f.limit),
    f.fromDate || f.toDate
      ? db.select({ n: count() }).from(memberships).innerJoin(users, eq(users.userId, memberships.userId)).where(where)
      : counterTotal(db, 'membership_users'),
  ]);
  return { data: rows.map(toMember), total: counted?.n ?? 0 };
}

/** Where a CSV batch ended: the sort column's value as the database wrote it (text) and its tie-break (the membership id; the user id for name and currentAmount). */
export interface MembershipKeyset {
  value: string;
  id: number;
}

/** The sort keys' SQL for the export: the column, how a cursor's text goes back into it, and the unique tie-break its index holds. */
const CSV_SORT = {
  dateTime: { column: 'm.created_at', cast: 'timestamptz', tiebreak: 'm.id' },
  userId: { column: 'm.user_id', cast: 'int8', tiebreak: 'm.id' },
  amount: { column: 'm.amount_paise', cast: 'int8', tiebreak: 'm.id' },
  name: { column: 'lower(u.full_name)', cast: 'text', tiebreak: 'u.user_id' },
  currentAmount: { column: 'u.balance_paise', cast: 'int8', tiebreak: 'u.user_id' },
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
  tiebreak: number;
}

/**
 * One keyset batch of the Membership list for the CSV, in the list's order: each sort key with its
 * tie-break walks its index (CSV_SORT, as SORT_COLUMNS) from the cursor on, so every batch costs
 * the same however deep it is.
 */
export async function membersBatch(database: Database, f: MembershipCsvFilter, after: MembershipKeyset | null, size: number) {
  const params: unknown[] = [];
  const p = (value: unknown) => `$${params.push(value)}`;
  const { key, desc } = sortParts(f.sort);
  const { column, cast, tiebreak } = CSV_SORT[key];
  const dir = desc ? 'desc' : 'asc';
  const where = ['u.deleted_at is null', 'not u.can_sign_in'];
  if (f.fromDate) where.push(`m.created_at >= (${p(f.fromDate)}::date)::timestamp at time zone 'Asia/Kolkata'`);
  if (f.toDate) where.push(`m.created_at < (${p(f.toDate)}::date + 1)::timestamp at time zone 'Asia/Kolkata'`);
  if (after) where.push(`(${column}, ${tiebreak}) ${desc ? '<' : '>'} (${p(after.value)}::text::${cast}, ${p(after.id)}::int8)`);
  const rows = await database.query<Record<string, unknown>>(`
    select m.id, m.user_id as "userId", u.full_name as "fullName", u.email, u.phone, u.status,
           p.name as "planName", m.status as "membershipStatus", m.amount_paise::int8 as "amountPaise",
           u.balance_paise::int8 as "balancePaise", m.earned_paise::int8 as "earnedPaise", m.daily_paise::int8 as "dailyPaise",
           to_char(m.created_at at time zone 'Asia/Kolkata', 'YYYY-MM-DD"T"HH24:MI:SS"+05:30"') as "istTime",
           ${column}::text as cursor, ${tiebreak} as tiebreak
      from memberships m
      join users u on u.user_id = m.user_id
      left join membership_plans p on p.plan_id = m.plan_id
     where ${where.join(' and ')}
     order by ${column} ${dir}, ${tiebreak} ${dir}
     limit ${p(size)}`, params);
  // The row itself, its numbers converted in place (a spread copy costs a slow path per row).
  const data = rows.map((r) => Object.assign(r as unknown as MembershipCsvRow, {
    id: Number(r.id), userId: Number(r.userId), amountPaise: Number(r.amountPaise), balancePaise: Number(r.balancePaise),
    earnedPaise: Number(r.earnedPaise), dailyPaise: Number(r.dailyPaise),
  }));
  const last = data.at(-1);
  return { rows: data, next: data.length === size && last ? { value: last.cursor, id: Number(rows.at(-1)!.tiebreak) } : null };
}
