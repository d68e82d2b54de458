import { sql } from 'drizzle-orm';
import { isoToWireDate, paiseToRupees } from '../../../contract/common.ts';
import { DEFAULT_INCOME_SETTINGS, incomeSettings, type IncomeSettings, type MembershipDetail } from '../../../contract/income.ts';
import { postSet } from '../../db/books.ts';
import { rowsOf, type Db } from '../../db/client.ts';
import { iso, isoDate, type DayRow, type Nullable } from '../../db/rows.ts';
import type { memberships, users } from '../../db/schema/members.ts';
import { levelIncomeCtes, type LevelShare } from './level-income.ts';
import { dailyPaiseOf, type PlanTermsInForce } from './settings.ts';

type Membership = typeof memberships.$inferSelect;
type User = typeof users.$inferSelect;

/** A member as activation reads them (only the live ones are found), with today's business day. */
export type ActivationMember = Pick<User, 'userId' | 'status'>;

/** The business day in Asia/Kolkata (yyyy-mm-dd) by the database's clock, and the live member if any. */
export async function todayAndMember(db: Db, userId: number): Promise<{ day: string; member: ActivationMember | null }> {
  const [row] = rowsOf<DayRow & Nullable<ActivationMember>>(await db.execute(sql`
    select (now() at time zone 'Asia/Kolkata')::date::text as day, u.user_id as "userId", u.status
      from (select 1) one left join users u on u.user_id = ${userId} and u.deleted_at is null`));
  return { day: row.day, member: row.userId === null ? null : { userId: Number(row.userId), status: Boolean(row.status) } };
}

export async function liveMember(db: Db, userId: number): Promise<ActivationMember | null> {
  return (await todayAndMember(db, userId)).member;
}

export async function hasMembership(db: Db, userId: number): Promise<boolean> {
  return rowsOf(await db.execute(sql`select 1 from memberships where user_id = ${userId}`)).length > 0;
}

/** What an activation decides on, read in one statement: settings.ts's versions in force on today. */
export interface ActivationInputs {
  /** Today's business day in Asia/Kolkata (yyyy-mm-dd) by the database's clock. */
  day: string;
  member: ActivationMember | null;
  /** The plan's version in force today, null when it has none yet (or no such plan: see planExists). */
  terms: PlanTermsInForce | null;
  planExists: boolean;
  settings: IncomeSettings;
  /** null: no settings saved; the defaults apply. */
  settingsVersionId: number | null;
  /** A pending (four-eyes) activation of this member (asked only for payments outside): a second would activate them twice. */
  pendingRequestId: number | null;
}

type InputsRow = {
  day: string; userId: number | null; status: boolean | null; planExists: boolean; settingsVersionId: number | null; settings: unknown;
  pendingRequestId: number | null; versionId: number | null; name: string; pricePaise: number; dailyMode: 'percent' | 'fixed';
  dailyValue: number; durationDays: number; capPaise: number; active: boolean;
};

/**
 * The day, the member, the plan's terms and the settings in force, and (paid outside) a pending
 * request, in one round trip instead of five. "In force on a day" is settings.ts's rule: the
 * version with the latest effective_from that is not after the day.
 */
export async function activationInputs(db: Db, userId: number, planId: number, outside: boolean): Promise<ActivationInputs> {
  const [row] = rowsOf<InputsRow>(await db.execute(sql`
    select d.day::text as day, u.user_id as "userId", u.status,
           exists (select 1 from membership_plans where plan_id = ${planId}) as "planExists",
           s.version_id as "settingsVersionId", s.settings,
           case when ${outside}::boolean then (select id from money_requests
             where status = 'pending' and kind = 'membership_activation' and user_id = ${userId} limit 1) end as "pendingRequestId",
           t.version_id as "versionId", t.name, t.price_paise::int8 as "pricePaise", t.daily_mode as "dailyMode",
           t.daily_value::int8 as "dailyValue", t.duration_days as "durationDays", t.cap_paise::int8 as "capPaise", t.active
      from (select (now() at time zone 'Asia/Kolkata')::date as day) d
      left join users u on u.user_id = ${userId} and u.deleted_at is null
      left join lateral (
        select v.version_id, p.name, v.price_paise, v.daily_mode, v.daily_value, v.duration_days, v.cap_paise, v.active
          from membership_plan_versions v join membership_plans p on p.plan_id = v.plan_id
         where v.plan_id = ${planId} and v.effective_from <= d.day order by v.effective_from desc limit 1) t on true
      left join lateral (
        select version_id, settings from income_settings_versions
         where effective_from <= d.day order by effective_from desc limit 1) s on true`));
  const stored = typeof row.settings === 'string' ? JSON.parse(row.settings) : row.settings;
  const pricePaise = Number(row.pricePaise);
  const dailyValue = Number(row.dailyValue);
  return {
    day: isoDate(row.day),
    member: row.userId === null ? null : { userId: Number(row.userId), status: Boolean(row.status) },
    terms: row.versionId === null ? null : {
      planId, versionId: row.versionId, name: row.name, pricePaise, dailyMode: row.dailyMode, dailyValue,
      dailyPaise: dailyPaiseOf(row.dailyMode, dailyValue, pricePaise), durationDays: row.durationDays, capPaise: Number(row.capPaise), active: row.active,
    },
    planExists: row.planExists,
    settings: row.settingsVersionId === null ? DEFAULT_INCOME_SETTINGS : incomeSettings.parse(stored),
    settingsVersionId: row.settingsVersionId,
    pendingRequestId: row.pendingRequestId === null ? null : Number(row.pendingRequestId),
  };
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

/** The activation's money: the fee's ledger texts, and who gets level income and how. */
export interface ActivationMoney {
  /** Paid outside: the external_payment row's description (it comes in before the fee goes out); null from the wallet. */
  externalDescription: string | null;
  feeDescription: string;
  actorId: number;
  levelBp: readonly number[];
  compression: boolean;
  /** How far up the uplines are walked (and locked). */
  maxDepth: number;
}

export type ActivationPosted =
  | { outcome: 'gone' }
  | { outcome: 'member' }
  | { outcome: 'short'; balancePaise: number }
  | { outcome: 'done'; membershipId: number; createdAt: string; feeEntryId: number; balancePaise: number; shares: LevelShare[] };

type PostedRow = {
  live: boolean | null; balanceBefore: number | null; membershipId: number | null; createdAt: string | Date | null;
  feeEntryId: number | null; balancePaise: number | null; shares: LevelShare[] | string | null;
};

/**
 * The activation's one write statement: locks the member and their uplines in user-id order
 * (level-income.ts), inserts the membership with the terms it was sold with, and, only when the
 * member is live, holds no membership yet and the fee is covered, moves every balance (the fee
 * and each upline's credit) in one UPDATE and writes every ledger row in one INSERT, in this
 * order: external_payment (paid outside), membership_fee, level_income by level. Nothing moves
 * otherwise, and the outcome says why: 'gone' (deleted meanwhile), 'member' (memberships.user_id
 * is unique: of two concurrent activations the second waits on the member's row, then finds the
 * key taken), 'short' (the balance, locked, cannot cover the fee). One statement, so the rows
 * every activation shares (stat_counters, ledger_daily and ledger_totals, written by triggers at
 * its end) are held from its end to the commit only.
 */
export async function postActivation(tx: Db, m: NewMembership, money: ActivationMoney): Promise<ActivationPosted> {
  const external = money.externalDescription === null ? 0 : m.pricePaise;
  const posted = await postSet(tx, { kind: 'membership_fee', actorId: money.actorId, description: money.feeDescription }, {
    recursive: true,
    with: sql`${levelIncomeCtes(m.userId, money.maxDepth, money.levelBp, m.pricePaise, money.compression)},
    buyer as (
      select user_id, balance_paise from locked where user_id = ${m.userId} and deleted_at is null
    ), membership as (
      insert into memberships (user_id, amount_paise, plan_id, plan_version_id, daily_paise, cap_paise, duration_days,
                               starts_on, status, paid_via, payment_method, payment_reference, activated_by, approved_by)
      select ${m.userId}, ${m.pricePaise}, ${m.planId}, ${m.planVersionId}, ${m.dailyPaise}, ${m.capPaise}, ${m.durationDays},
             ${m.startsOn}::date, 'active', ${m.paidVia}, ${m.paymentMethod}, ${m.paymentReference}, ${m.activatedBy}, ${m.approvedBy}
        from buyer
      on conflict (user_id) do nothing
      returning id, created_at
    ), go as (
      select 1 from membership, buyer where buyer.balance_paise + ${external}::int8 - ${m.pricePaise}::int8 >= 0
    )`,
    // The lines, only when the activation goes ahead: external_payment (paid outside), the fee, level income by level.
    lines: sql`
      select l.ord, null::int8 as id, l.user_id, l.kind, l.amount as amount_paise, null::int as batch_id, l.description, null::int8 as reversal_of
        from (
          select 1 as ord, ${m.userId}::int8 as user_id, 'external_payment' as kind, ${external}::int8 as amount, ${money.externalDescription}::text as description
           where ${external}::int8 > 0
          union all
          select 2, ${m.userId}::int8, 'membership_fee', -${m.pricePaise}::int8, ${money.feeDescription}::text
          union all
          select 2 + s.level, s.user_id, 'level_income', s.amount, 'Level ' || s.level || ' income on the membership of member ' || ${m.userId}::int8
            from shares s
        ) l
       where exists (select 1 from go)`,
    select: sql`(select deleted_at is null from locked where user_id = ${m.userId}) as live,
           (select balance_paise from buyer) as "balanceBefore",
           (select id from membership) as "membershipId", (select created_at from membership) as "createdAt",
           (select id from posting_entries where kind = 'membership_fee') as "feeEntryId",
           (select balance_paise from posting_moved where user_id = ${m.userId}) as "balancePaise",
           (select coalesce(json_agg(json_build_object('level', level, 'userId', user_id, 'amountPaise', amount) order by level), '[]')
              from shares) as shares`,
  });
  const row = posted.row as PostedRow;
  if (!row.live) return { outcome: 'gone' };
  if (row.membershipId === null) return { outcome: 'member' };
  if (row.feeEntryId === null || row.balancePaise === null) return { outcome: 'short', balancePaise: Number(row.balanceBefore) };
  const shares = typeof row.shares === 'string' ? (JSON.parse(row.shares) as LevelShare[]) : (row.shares ?? []);
  return {
    outcome: 'done',
    membershipId: Number(row.membershipId),
    createdAt: iso(row.createdAt as string | Date),
    feeEntryId: Number(row.feeEntryId),
    balancePaise: Number(row.balancePaise),
    shares: shares.map((x) => ({ level: Number(x.level), userId: Number(x.userId), amountPaise: Number(x.amountPaise) })),
  };
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
