import { sql } from 'drizzle-orm';
import { isoToWireDate, paiseToRupees } from '../../../contract/common.ts';
import type { MembershipDetail } from '../../../contract/income.ts';
import { rowsOf, type Db } from '../../db/client.ts';
import { iso, isoDate } from '../../db/rows.ts';
import type { memberships, users } from '../../db/schema/members.ts';
import type { moneyRequests } from '../../db/schema/money.ts';

type Membership = typeof memberships.$inferSelect;
type User = typeof users.$inferSelect;

/** A member as activation reads them (only the live ones are found), with today's business day. */
export type ActivationMember = Pick<User, 'userId' | 'status'>;

/** The business day in Asia/Kolkata (yyyy-mm-dd) by the database's clock, and the live member if any. */
export async function todayAndMember(db: Db, userId: number): Promise<{ day: string; member: ActivationMember | null }> {
  const [row] = rowsOf<{ day: string; userId: number | null; status: boolean | null }>(await db.execute(sql`
    select (now() at time zone 'Asia/Kolkata')::date::text as day, u.user_id as "userId", u.status
      from (select 1) one left join users u on u.user_id = ${userId} and u.deleted_at is null`));
  return { day: row.day, member: row.userId === null ? null : { userId: Number(row.userId), status: Boolean(row.status) } };
}

export async function liveMember(db: Db, userId: number): Promise<ActivationMember | null> {
  return (await todayAndMember(db, userId)).member;
}

export async function planExists(db: Db, planId: number): Promise<boolean> {
  return rowsOf(await db.execute(sql`select 1 from membership_plans where plan_id = ${planId}`)).length > 0;
}

export async function hasMembership(db: Db, userId: number): Promise<boolean> {
  return rowsOf(await db.execute(sql`select 1 from memberships where user_id = ${userId}`)).length > 0;
}

/** A pending (four-eyes) activation of this member, if any: a second would activate them twice. */
export async function pendingActivation(db: Db, userId: number): Promise<number | null> {
  const [row] = rowsOf<Pick<typeof moneyRequests.$inferSelect, 'id'>>(await db.execute(sql`
    select id from money_requests
     where status = 'pending' and kind = 'membership_activation' and user_id = ${userId} limit 1`));
  return row ? Number(row.id) : null;
}

export interface NewMembership {
  userId: number;
  planId: number;
  planVersionId: number;
  pricePaise: number;
  dailyPaise: number;
  capPaise: number;
  durationDays: number;
  /** yyyy-mm-dd */
  startsOn: string;
  paidVia: 'wallet' | 'outside';
  paymentMethod: string | null;
  paymentReference: string | null;
  activatedBy: number;
  approvedBy: number | null;
}

/**
 * Inserts the membership with the terms it was sold with; null when the member already holds one
 * (memberships.user_id is unique: of two concurrent activations the second waits on the first's
 * key and then finds it taken).
 */
export async function insertMembership(db: Db, m: NewMembership): Promise<{ id: number; createdAt: string } | null> {
  const [row] = rowsOf<{ id: number; createdAt: string | Date }>(await db.execute(sql`
    insert into memberships (user_id, amount_paise, plan_id, plan_version_id, daily_paise, cap_paise, duration_days,
                             starts_on, status, paid_via, payment_method, payment_reference, activated_by, approved_by)
    values (${m.userId}, ${m.pricePaise}, ${m.planId}, ${m.planVersionId}, ${m.dailyPaise}, ${m.capPaise}, ${m.durationDays},
            ${m.startsOn}::date, 'active', ${m.paidVia}, ${m.paymentMethod}, ${m.paymentReference}, ${m.activatedBy}, ${m.approvedBy})
    on conflict (user_id) do nothing
    returning id, created_at as "createdAt"`));
  return row ? { id: Number(row.id), createdAt: iso(row.createdAt) } : null;
}

type DetailRow = Pick<
  Membership,
  'userId' | 'planId' | 'planVersionId' | 'durationDays' | 'daysEarned' | 'status' | 'paidVia' | 'paymentMethod' | 'paymentReference'
> & {
  membershipId: number;
  planName: string | null;
  amountPaise: number | string;
  dailyPaise: number | string;
  capPaise: number | string;
  earnedPaise: number | string;
  startsOn: string | Date | null;
  createdAt: string | Date;
};

const toDetail = (r: DetailRow): MembershipDetail => ({
  membershipId: Number(r.membershipId),
  userId: Number(r.userId),
  planId: r.planId,
  planName: r.planName,
  planVersionId: r.planVersionId,
  price: paiseToRupees(r.amountPaise),
  dailyAmount: paiseToRupees(r.dailyPaise),
  durationDays: r.durationDays,
  cap: paiseToRupees(r.capPaise),
  earned: paiseToRupees(r.earnedPaise),
  daysEarned: r.daysEarned,
  status: r.status,
  startsOn: r.startsOn === null ? null : isoToWireDate(isoDate(r.startsOn)),
  paidVia: r.paidVia,
  paymentMethod: r.paymentMethod,
  paymentReference: r.paymentReference,
  activatedAt: iso(r.createdAt),
});

/** A member's membership with its plan's name; null when they have none. */
export async function membershipOf(db: Db, userId: number): Promise<MembershipDetail | null> {
  const [row] = rowsOf<DetailRow>(await db.execute(sql`
    select m.id as "membershipId", m.user_id as "userId", m.plan_id as "planId", p.name as "planName",
           m.plan_version_id as "planVersionId", m.amount_paise as "amountPaise", m.daily_paise as "dailyPaise",
           m.duration_days as "durationDays", m.cap_paise as "capPaise", m.earned_paise as "earnedPaise",
           m.days_earned as "daysEarned", m.status, m.starts_on::text as "startsOn", m.paid_via as "paidVia",
           m.payment_method as "paymentMethod", m.payment_reference as "paymentReference", m.created_at as "createdAt"
      from memberships m left join membership_plans p on p.plan_id = m.plan_id
     where m.user_id = ${userId}`));
  return row ? toDetail(row) : null;
}
