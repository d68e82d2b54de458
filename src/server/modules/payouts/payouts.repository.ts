import { eq, sql } from 'drizzle-orm';
import { paiseToRupees } from '../../../contract/common.ts';
import type { Payout, PAYOUT_SORTS } from '../../../contract/payouts.ts';
import type { SortValue } from '../../../contract/common.ts';
import { orderSql } from '../../lib/order.ts';
import { rowsOf, type Database, type Db } from '../../db/client.ts';
import { isoText, pageWith } from '../../db/rows.ts';
import { dailyPayouts, type moneyRequests } from '../../db/schema/money.ts';

export interface PayoutFilters {
  fromDate?: string;
  toDate?: string;
  status?: PayoutStatus;
  userName?: string;
}

type PayoutColumns = typeof dailyPayouts.$inferSelect;
type PayoutStatus = PayoutColumns['status'];
type PayoutId = Pick<PayoutColumns, 'id'>;
/** A payout as a bulk Pay Now locks it. */
type LockedPayoutRow = Pick<PayoutColumns, 'id' | 'userId' | 'amountPaise' | 'status' | 'runId'>;
type RequestId = Pick<typeof moneyRequests.$inferSelect, 'id'>;
/** A payout held by a pending approval request. */
type HeldPayoutRow = { payoutId: PayoutColumns['id']; requestId: RequestId['id'] };

/** A payout as the list and export statements give it: the day as text, the times as ISO text (isoText). */
type PayoutRow = Pick<typeof dailyPayouts.$inferSelect,
  'id' | 'userId' | 'amountPaise' | 'status' | 'reason' | 'grossPaise' | 'tdsPaise' | 'adminChargePaise' | 'runId' | 'reversalReason' | 'reversedStatus'> & {
  userName: string;
  date: string;
  paidAt: string | null;
  reversedByName: string | null;
  reversedAt: string | null;
};

const orNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

const toPayout = (r: PayoutRow): Payout => ({
  id: Number(r.id),
  userId: Number(r.userId),
  userName: r.userName,
  amount: paiseToRupees(Number(r.amountPaise)),
  date: r.date,
  status: r.status,
  paidAt: r.paidAt,
  reason: r.reason ?? null,
  gross: r.grossPaise === null ? null : paiseToRupees(Number(r.grossPaise)),
  tds: paiseToRupees(Number(r.tdsPaise ?? 0)),
  adminCharge: paiseToRupees(Number(r.adminChargePaise ?? 0)),
  runId: orNull(r.runId),
  reversedByName: r.reversedByName ?? null,
  reversedAt: r.reversedAt ?? null,
  reversalReason: r.reversalReason ?? null,
  reversedStatus: r.reversedStatus ?? null,
});

export type PayoutSort = SortValue<(typeof PAYOUT_SORTS)[number]>;

/** The sort keys' columns; each with the id tie-break has its index (daily_payouts_*_id_idx). */
// Name (issue 24): the member's name, lower-cased as users_name_sort_idx keeps it; the rows it
// sorts are those the filters select (a day or a month of payouts by default), a top-N sort of
// the page, not an index walk: a payout row does not carry its member's name.
const SORT_COLUMNS: Record<(typeof PAYOUT_SORTS)[number], string> = {
  date: 'p.payout_date', amount: 'p.amount_paise', status: 'p.status', name: 'lower(u.full_name)',
};

/** The list's and the export's one statement: the filters, an optional keyset, then the order and paging. */
const selectPayouts = (filter: string, paging: string, order = 'p.payout_date desc, p.id desc', column = '') => `
    select p.id, p.user_id as "userId", coalesce(u.username, u.full_name) as "userName", p.amount_paise as "amountPaise",
           p.payout_date::text as date, p.status, ${isoText('p.paid_at')} as "paidAt", p.reason,
           p.gross_paise as "grossPaise", p.tds_paise as "tdsPaise", p.admin_charge_paise as "adminChargePaise", p.run_id as "runId",
           (select coalesce(rv.full_name, rv.username) from users rv where rv.user_id = p.reversed_by) as "reversedByName",
           ${isoText('p.reversed_at')} as "reversedAt", p.reversal_reason as "reversalReason", p.reversed_status as "reversedStatus"${column ? `, ${column}` : ''}
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

  const totals = { count: 0, amount: 0, successful: 0, failed: 0, reversed: 0 };
  const daily = new Map<string, { date: string; successful: number; failed: number }>();
  let paise = 0;
  for (const g of groups) {
    const n = Number(g.n);
    totals.count += n;
    // A reversed payout is listed (and counted for the pager) but its money was taken back: not in the amount.
    if (g.status === 'Reversed') {
      totals.reversed += n;
      continue;
    }
    paise += Number(g.paise);
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
  /** Where the run paid (its settings' payTo): 'bank' sends Pay Now's net on to the bank too. */
  payTo: string | null;
};

const PAYABLE = `user_id as "userId", amount_paise as "amountPaise", payout_date::text as date, gross_paise as "grossPaise",
  tds_paise as "tdsPaise", admin_charge_paise as "adminChargePaise", run_id as "runId",
  (select r.batch_id from income_runs r where r.run_id = daily_payouts.run_id) as "batchId",
  (select r.state->>'payTo' from income_runs r where r.run_id = daily_payouts.run_id) as "payTo"`;

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

/** The ids of the Failure payouts the filters select (bulk Pay Now: "every row the filter matches"), at most `cap` + 1. */
export async function failedPayoutIds(database: Database, f: PayoutFilters, cap: number): Promise<number[]> {
  const params: unknown[] = [];
  const filter = where({ ...f, status: 'Failure' }, params);
  params.push(cap + 1);
  // daily_payouts_status_id_idx: the Failure rows by id (with a range, daily_payouts_date_id_idx).
  const rows = await database.query<PayoutId>(`
    select p.id from daily_payouts p join users u on u.user_id = p.user_id ${filter} order by p.id limit $${params.length}`, params);
  return rows.map((r) => Number(r.id));
}

/** The bulk's payouts, locked in id order (two bulks at once wait for each other, never deadlock). */
export async function lockPayouts(db: Db, ids: number[]) {
  const rows = rowsOf<LockedPayoutRow>(await db.execute(sql`
    select id::int8 as id, user_id::int8 as "userId", amount_paise::int8 as "amountPaise", status, run_id::int8 as "runId"
      from daily_payouts where id = any(${`{${ids.join(',')}}`}::int8[]) order by id for update`));
  return rows.map((r) => ({ ...r, id: Number(r.id), userId: Number(r.userId), amountPaise: Number(r.amountPaise), runId: orNull(r.runId) }));
}

/** The runs of these payouts, locked in id order before their payouts (a reversal takes its run first too). */
export async function lockRunsOf(db: Db, payoutIds: number[]) {
  await db.execute(sql`
    select run_id from income_runs where run_id in (
      select run_id from daily_payouts where id = any(${`{${payoutIds.join(',')}}`}::int8[]) and run_id is not null)
     order by run_id for update`);
}

/** Pending approval requests holding any of these payouts (one by one or in a bulk): payout id → request id. */
export async function pendingPayoutRequests(db: Db, ids: number[]): Promise<Map<number, number>> {
  const rows = rowsOf<HeldPayoutRow>(await db.execute(sql`
    select x.id::int8 as "payoutId", r.id::int8 as "requestId"
      from money_requests r
      cross join lateral (
        select (r.payload->>'payoutId')::int8 as id where r.kind = 'pay_payout' and r.payload ? 'payoutId'
        union all
        select jsonb_array_elements_text(r.payload->'payoutIds')::int8 where r.kind = 'pay_payout_bulk'
      ) x
     where r.status = 'pending' and r.kind in ('pay_payout', 'pay_payout_bulk')
       and x.id = any(${`{${ids.join(',')}}`}::int8[])`));
  return new Map(rows.map((r) => [Number(r.payoutId), Number(r.requestId)]));
}

/** A pending bulk request of this maker and bulk, to add a later chunk's held payouts to. */
export async function addToPendingBulk(db: Db, makerId: number, bulkId: string, ids: number[], paise: number): Promise<number | null> {
  const [row] = rowsOf<RequestId>(await db.execute(sql`
    update money_requests
       set payload = jsonb_set(payload, '{payoutIds}', (payload->'payoutIds') || ${JSON.stringify(ids)}::jsonb),
           amount_paise = amount_paise + ${paise}
     where id = (select id from money_requests where status = 'pending' and kind = 'pay_payout_bulk' and maker_id = ${makerId}
                   and payload->>'bulkId' = ${bulkId} order by id limit 1 for update)
    returning id::int8 as id`));
  return row ? Number(row.id) : null;
}

/** Pay Now on a run's Failure row moves the run's counts (issue 24): one more paid, one fewer failed. */
export async function countPaidNow(db: Db, payout: Payable) {
  if (payout.runId === null) return;
  const gross = payout.grossPaise ?? payout.amountPaise;
  await db.execute(sql`
    update income_runs
       set paid = paid + 1, failed = greatest(failed - 1, 0), gross_paise = gross_paise + ${gross}::int8,
           deductions_paise = deductions_paise + ${payout.tdsPaise + payout.adminChargePaise}::int8,
           tds_paise = tds_paise + ${payout.tdsPaise}::int8, failed_paise = greatest(failed_paise - ${payout.amountPaise}::int8, 0)
     where run_id = ${payout.runId}`);
}
