import { eq, sql } from 'drizzle-orm';
import { paiseToRupees } from '../../../contract/common.ts';
import type { Payout, PAYOUT_SORTS } from '../../../contract/payouts.ts';
import type { SortValue } from '../../../contract/common.ts';
import { orderSql } from '../../lib/order.ts';
import { rowsOf, type Database, type Db } from '../../db/client.ts';
import { iso, pageWith } from '../../db/rows.ts';
import { users } from '../../db/schema/members.ts';
import { dailyPayouts } from '../../db/schema/money.ts';

export interface PayoutFilters {
  fromDate?: string;
  toDate?: string;
  status?: PayoutStatus;
  userName?: string;
}

type PayoutStatus = (typeof dailyPayouts.$inferSelect)['status'];

/** A payout as the list and export statements give it: the day as text, the time as the driver reads it. */
type PayoutRow = Pick<typeof dailyPayouts.$inferSelect, 'id' | 'userId' | 'amountPaise' | 'status' | 'reason'> & {
  userName: string;
  date: string;
  paidAt: Date | string | null;
};

const toPayout = (r: PayoutRow): Payout => ({
  id: r.id,
  userId: r.userId,
  userName: r.userName,
  amount: paiseToRupees(r.amountPaise),
  date: r.date,
  status: r.status,
  paidAt: r.paidAt === null ? null : iso(r.paidAt),
  reason: r.reason ?? null,
});

export type PayoutSort = SortValue<(typeof PAYOUT_SORTS)[number]>;

/** The sort keys' columns; each with the id tie-break has its index (daily_payouts_*_id_idx). */
const SORT_COLUMNS: Record<(typeof PAYOUT_SORTS)[number], string> = { date: 'p.payout_date', amount: 'p.amount_paise', status: 'p.status' };

/** The list's and the export's one statement: the filters, an optional keyset, then the order and paging. */
const selectPayouts = (filter: string, paging: string, order = 'p.payout_date desc, p.id desc', column = '') => `
    select p.id, p.user_id as "userId", coalesce(u.username, u.full_name) as "userName", p.amount_paise as "amountPaise",
           p.payout_date::text as date, p.status, p.paid_at as "paidAt", p.reason${column ? `, ${column}` : ''}
      from daily_payouts p join users u on u.user_id = p.user_id
      ${filter}
     order by ${order}
     ${paging}`;

/** `like` pattern for a name fragment, with the wildcards of the input escaped. */
export const containsPattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;

/** WHERE clauses and params for the filters: the rows, the cards and the chart select the same payouts. */
function where(f: PayoutFilters, params: unknown[]): string {
  const clauses: string[] = [];
  const add = (clause: string, value: unknown) => {
    params.push(value);
    clauses.push(clause.replaceAll('?', `$${params.length}`));
  };
  if (f.fromDate) add('p.payout_date >= ?::date', f.fromDate);
  if (f.toDate) add('p.payout_date <= ?::date', f.toDate);
  if (f.status) add('p.status = ?', f.status);
  if (f.userName) add("(lower(u.full_name) like ? or lower(coalesce(u.username, '')) like ?)", containsPattern(f.userName));
  return clauses.length ? `where ${clauses.join(' and ')}` : '';
}

/** The date range and status over the rollup; days whose payouts all moved to another status are left out. */
function rollupWhere(f: PayoutFilters, params: unknown[]): string {
  const clauses = ['d.payouts <> 0'];
  if (f.status) {
    params.push(f.status);
    clauses.push(`d.status = $${params.length}`);
  }
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

export async function listPayouts(database: Database, f: PayoutFilters, sort: PayoutSort, page: number, limit: number) {
  const params: unknown[] = [];
  const filter = where(f, params);
  params.push(limit, (page - 1) * limit);
  const order = orderSql(sort, SORT_COLUMNS, 'p.id');
  // The page, and the cards, the chart and the paging total in the same statement, over exactly
  // the rows the filters select: from the trigger-kept day rollup (payouts_daily: a month is ~60
  // rows, the status is one of its keys), or, with a name filter, over the matching members'
  // payouts of the range.
  const paging = `limit $${params.length - 1} offset $${params.length}`;
  const { rows, extra: groups } = await pageWith<PayoutRow, { date: string; status: PayoutStatus; n: number; paise: number }[]>(
    database,
    { text: (column) => selectPayouts(filter, paging, order, column), params },
    (aggParams, alone) =>
      f.userName
        ? `select p.payout_date::text as date, p.status, count(*)::int8 as n, sum(p.amount_paise)::int8 as paise
             from daily_payouts p join users u on u.user_id = p.user_id
             ${alone ? where(f, aggParams) : filter}
            group by p.payout_date, p.status
            order by p.payout_date`
        : `select d.day::text as date, d.status, d.payouts as n, d.total_paise as paise
             from payouts_daily d
            ${rollupWhere(f, aggParams)}
            order by d.day`,
  );

  const totals = { count: 0, amount: 0, successful: 0, failed: 0 };
  const daily = new Map<string, { date: string; successful: number; failed: number }>();
  let paise = 0;
  for (const g of groups) {
    const n = g.n;
    totals.count += n;
    paise += g.paise;
    if (g.status === 'Success') totals.successful += n;
    else totals.failed += n;
    const day = daily.get(g.date) ?? { date: g.date, successful: 0, failed: 0 };
    if (g.status === 'Success') day.successful += n;
    else day.failed += n;
    daily.set(g.date, day);
  }
  totals.amount = paiseToRupees(paise);
  return { data: rows.map(toPayout), total: totals.count, totals, daily: [...daily.values()] };
}

export interface PayoutKeyset {
  date: string;
  id: number;
}

/** One keyset batch of payouts for the CSV export, in the table's order. */
export async function payoutsBatch(database: Database, f: PayoutFilters, after: PayoutKeyset | null, size: number) {
  const params: unknown[] = [];
  let filter = where(f, params);
  if (after) {
    params.push(after.date, after.id);
    const keyset = `(p.payout_date, p.id) < ($${params.length - 1}::date, $${params.length}::int8)`;
    filter = filter ? `${filter} and ${keyset}` : `where ${keyset}`;
  }
  params.push(size);
  const rows = await database.query<PayoutRow>(selectPayouts(filter, `limit $${params.length}`), params);
  return rows.map(toPayout);
}

/**
 * A payout still to be paid, as the payment checks it: whose it is, how much, and its day; for a
 * row the engine wrote, its gross and deductions, its run and the run's income batch.
 */
export type Payable = Pick<typeof dailyPayouts.$inferSelect, 'userId' | 'amountPaise' | 'grossPaise' | 'tdsPaise' | 'adminChargePaise' | 'runId'> & {
  date: string;
  batchId: number | null;
};

const PAYABLE = `user_id as "userId", amount_paise as "amountPaise", payout_date::text as date, gross_paise as "grossPaise",
  tds_paise as "tdsPaise", admin_charge_paise as "adminChargePaise", run_id as "runId",
  (select r.batch_id from income_runs r where r.run_id = daily_payouts.run_id) as "batchId"`;

const payable = (r: Payable): Payable => ({
  ...r,
  userId: Number(r.userId), amountPaise: Number(r.amountPaise), grossPaise: r.grossPaise === null ? null : Number(r.grossPaise),
  tdsPaise: Number(r.tdsPaise), adminChargePaise: Number(r.adminChargePaise), runId: r.runId === null ? null : Number(r.runId),
  batchId: r.batchId === null ? null : Number(r.batchId),
});

/**
 * Marks a Failure payout paid and returns it; null when it is not (any longer) a Failure. The
 * guard on status lets exactly one of two concurrent payments through.
 */
export async function claimFailedPayout(db: Db, id: number): Promise<Payable | null> {
  const [row] = rowsOf<Payable>(await db.execute(sql`
    update daily_payouts set status = 'Success', paid_at = now()
     where id = ${id} and status = 'Failure'
     returning ${sql.raw(PAYABLE)}`));
  return row ? payable(row) : null;
}

/** A Failure payout, its row locked until the transaction ends; null when it is not a Failure. */
export async function lockFailedPayout(db: Db, id: number): Promise<Payable | null> {
  const [row] = rowsOf<Payable>(await db.execute(sql`
    select ${sql.raw(PAYABLE)} from daily_payouts
     where id = ${id} and status = 'Failure' for update`));
  return row ? payable(row) : null;
}

export async function payoutStatus(db: Db, id: number): Promise<PayoutStatus | null> {
  const [row] = await db.select({ status: dailyPayouts.status }).from(dailyPayouts).where(eq(dailyPayouts.id, id));
  return row?.status ?? null;
}

export async function linkLedgerEntry(db: Db, id: number, ledgerEntryId: number) {
  await db.update(dailyPayouts).set({ ledgerEntryId }).where(eq(dailyPayouts.id, id));
}

export async function liveMemberExists(db: Db, userId: number): Promise<boolean> {
  const rows = await db.select({ userId: users.userId }).from(users).where(sql`${users.userId} = ${userId} and ${users.deletedAt} is null`);
  return rows.length > 0;
}
