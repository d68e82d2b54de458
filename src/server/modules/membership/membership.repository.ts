import { and, count, eq, gte, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { paiseToRupees } from '../../../contract/common.ts';
import type { SortValue } from '../../../contract/common.ts';
import type { Member, MEMBERSHIP_SORTS } from '../../../contract/membership.ts';
import type { Db } from '../../db/client.ts';
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
