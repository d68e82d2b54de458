import { sql, type SQL } from 'drizzle-orm';
import { maskAccountNumber } from '../../../contract/banks.ts';
import type { BankBatch, BankBatchStatus, BankFileTemplate, BankLine, BankLineStatus, TransitLine } from '../../../contract/bank-transfers.ts';
import type { ApprovalStatus } from '../../../contract/approvals.ts';
import { paiseToRupees } from '../../../contract/common.ts';
import { BANK_GATHER_LOCK } from '../../db/books.ts';
import { rowsOf, type Db } from '../../db/client.ts';
import { iso, type CountRow } from '../../db/rows.ts';
import type { bankBatches, bankTransferLines } from '../../db/schema/bank-transfers.ts';
import type { users } from '../../db/schema/members.ts';
import type { moneyRequests } from '../../db/schema/money.ts';

/**
 * Money out to banks: the queries. Every money movement goes through db/books.ts (the service
 * posts); these read and mark the batches and their lines.
 */

type Batch = typeof bankBatches.$inferSelect;
type Line = typeof bankTransferLines.$inferSelect;
type Paise = Line['amountPaise'];
/** The money waiting to be gathered: lines with a primary account (n, total) and without (bad, bad_total). */
type WaitingTotalsRow = { n: number; total: Paise; bad: number; bad_total: Paise };
/** A waiting withdrawal whose member has no primary bank account. */
type NotGatherableRow = {
  entry_id: Line['ledgerEntryId'];
  user_id: Line['userId'];
  full_name: (typeof users.$inferSelect)['fullName'] | null;
  amount_paise: Paise;
};
/** A new batch: its id, its lines and their total. */
type GatheredRow = { id: Batch['id']; n: Batch['lines']; total: Batch['totalPaise'] };
/** A member's withdrawals waiting to be gathered, and whether they have no primary account. */
type MemberWaitingRow = { n: number; total: Paise; without_account: boolean };
/** Lines of a batch and their total. */
type LinesTotalRow = { n: Batch['lines']; total: Batch['totalPaise'] };

const rupees = (paise: unknown) => paiseToRupees(Number(paise ?? 0));
const isoOrNull = (v: unknown) => (v === null || v === undefined ? null : iso(v as Date | string));

/**
 * The money still to send: approved withdrawals (wallet_withdrawal) and bank-mode daily payouts
 * (bank_payout) written since the books (they name a transfer with a withdrawals_payable leg; a
 * withdrawal from before the books was paid outside, against company_bank) that no live batch line
 * holds (a cancelled draft's lines don't) and that no reversal has compensated.
 */
const WAITING = sql`
  select l.id as entry_id, l.user_id, -l.amount_paise as amount_paise, l.created_at
    from ledger_entries l
    join book_legs bl on bl.transfer_id = l.transfer_id and bl.account = 'withdrawals_payable'
   where l.kind in ('wallet_withdrawal', 'bank_payout') and l.transfer_id is not null and l.amount_paise < 0
     and not exists (select 1 from bank_transfer_lines t where t.ledger_entry_id = l.id and not t.cancelled)
     and not exists (select 1 from ledger_entries r where r.reversal_of = l.id)`;


export async function gatherable(db: Db) {
  const [totals] = rowsOf<WaitingTotalsRow>(await db.execute(sql`
    select count(*) filter (where b.user_id is not null)::int8 as n,
           coalesce(sum(w.amount_paise) filter (where b.user_id is not null), 0)::int8 as total,
           count(*) filter (where b.user_id is null)::int8 as bad,
           coalesce(sum(w.amount_paise) filter (where b.user_id is null), 0)::int8 as bad_total
      from (${WAITING}) w
      left join bank_accounts b on b.user_id = w.user_id and b.is_primary`));
  const bad = rowsOf<NotGatherableRow>(await db.execute(sql`
    select w.entry_id, w.user_id, u.full_name, w.amount_paise
      from (${WAITING}) w
      left join users u on u.user_id = w.user_id
     where not exists (select 1 from bank_accounts b where b.user_id = w.user_id and b.is_primary)
     order by w.entry_id limit 50`));
  return {
    count: Number(totals.n),
    total: rupees(totals.total),
    notGatherableCount: Number(totals.bad),
    notGatherableTotal: rupees(totals.bad_total),
    notGatherable: bad.map((r) => ({
      ledgerEntryId: Number(r.entry_id), userId: Number(r.user_id), userName: r.full_name, amount: rupees(r.amount_paise),
      reason: 'The member has no primary bank account',
    })),
  };
}

/**
 * A new batch of every gatherable withdrawal, one statement set: the lines snapshot the member's
 * primary account and take the reference BT<batch>-<line>. A withdrawal another gather took at
 * the same moment is skipped (its line is unique), never sent twice.
 */
export async function gather(db: Db, createdBy: number, template: BankFileTemplate): Promise<{ batchId: number; lines: number; totalPaise: number }> {
  await db.execute(sql`select pg_advisory_xact_lock(${BANK_GATHER_LOCK}::int8)`);
  const [row] = rowsOf<GatheredRow>(await db.execute(sql`
    with batch as (insert into bank_batches (created_by, template) values (${createdBy}, ${template}) returning id),
    src as (
      select nextval(pg_get_serial_sequence('bank_transfer_lines', 'id')) as id, w.entry_id, w.user_id, w.amount_paise,
             b.account_holder_name, b.account_number, b.ifsc, b.bank
        from (${WAITING}) w
        join bank_accounts b on b.user_id = w.user_id and b.is_primary
       order by w.entry_id
    ),
    ins as (
      insert into bank_transfer_lines (id, batch_id, user_id, ledger_entry_id, amount_paise, beneficiary_name, account_number, ifsc, bank_name, reference)
      select s.id, (select id from batch), s.user_id, s.entry_id, s.amount_paise, s.account_holder_name, s.account_number, s.ifsc, s.bank,
             'BT' || (select id from batch) || '-' || s.id
        from src s
      on conflict (ledger_entry_id) where not cancelled do nothing
      returning amount_paise
    )
    select (select id from batch)::int8 as id, count(*)::int8 as n, coalesce(sum(amount_paise), 0)::int8 as total from ins`));
  const batchId = Number(row.id);
  await db.execute(sql`update bank_batches set lines = ${Number(row.n)}, total_paise = ${Number(row.total)} where id = ${batchId}`);
  return { batchId, lines: Number(row.n), totalPaise: Number(row.total) };
}

type BatchRow = Record<string, unknown>;

const BATCH_SELECT = sql`
  select b.*, c.full_name as created_by_name, r.full_name as released_by_name, m.status as approval_status
    from bank_batches b
    left join users c on c.user_id = b.created_by
    left join users r on r.user_id = b.released_by
    left join money_requests m on m.id = b.approval_id`;

export const toBatch = (r: BatchRow): BankBatch => ({
  id: Number(r.id),
  status: r.status as BankBatchStatus,
  template: r.template as BankFileTemplate,
  lines: Number(r.lines),
  total: rupees(r.total_paise),
  settledLines: Number(r.settled_lines),
  settled: rupees(r.settled_paise),
  returnedLines: Number(r.returned_lines),
  returned: rupees(r.returned_paise),
  openLines: Number(r.lines) - Number(r.settled_lines) - Number(r.returned_lines),
  createdBy: Number(r.created_by),
  createdByName: (r.created_by_name as string | null) ?? null,
  releasedBy: r.released_by === null ? null : Number(r.released_by),
  releasedByName: (r.released_by_name as string | null) ?? null,
  approvalId: r.approval_id === null ? null : Number(r.approval_id),
  approvalStatus: (r.approval_status as string | null) ?? null,
  createdAt: iso(r.created_at as Date | string),
  releasedAt: isoOrNull(r.released_at),
  cancelledAt: isoOrNull(r.cancelled_at),
});

export async function batchById(db: Db, id: number): Promise<BankBatch | null> {
  const [row] = rowsOf<BatchRow>(await db.execute(sql`${BATCH_SELECT} where b.id = ${id}`));
  return row ? toBatch(row) : null;
}

/** Newest first (the primary key; with a status, bank_batches_status_idx). */
export async function listBatches(db: Db, status: BankBatchStatus | undefined, page: number, limit: number) {
  const where = status ? sql`where b.status = ${status}` : sql``;
  const rows = rowsOf<BatchRow>(await db.execute(sql`${BATCH_SELECT} ${where} order by b.id desc limit ${limit} offset ${(page - 1) * limit}`));
  const [{ n }] = rowsOf<CountRow>(await db.execute(sql`select count(*)::int8 as n from bank_batches b ${where}`));
  return { data: rows.map(toBatch), total: Number(n) };
}

export interface LockedBatch {
  id: number;
  status: BankBatchStatus;
  createdBy: number;
  approvalId: number | null;
  approvalStatus: string | null;
  releaseTransferId: number | null;
}

export async function lockBatch(db: Db, id: number): Promise<LockedBatch | null> {
  const [row] = rowsOf<Record<string, unknown>>(await db.execute(sql`
    select b.id, b.status, b.created_by, b.approval_id, b.release_transfer_id,
           (select m.status from money_requests m where m.id = b.approval_id) as approval_status
      from bank_batches b where b.id = ${id} for update of b`));
  if (!row) return null;
  return {
    id: Number(row.id),
    status: row.status as BankBatchStatus,
    createdBy: Number(row.created_by),
    approvalId: row.approval_id === null ? null : Number(row.approval_id),
    approvalStatus: (row.approval_status as string | null) ?? null,
    releaseTransferId: row.release_transfer_id === null ? null : Number(row.release_transfer_id),
  };
}

/** Cancels a draft (the caller holds it locked): its lines turn 'cancelled', so WAITING offers them again. */
export async function markCancelled(db: Db, batchId: number, by: number): Promise<{ lines: number; totalPaise: number }> {
  const [row] = rowsOf<LinesTotalRow>(await db.execute(sql`
    with freed as (
      update bank_transfer_lines set status = 'cancelled', cancelled = true where batch_id = ${batchId} and status = 'queued' returning amount_paise
    ), batch as (
      update bank_batches set status = 'cancelled', cancelled_by = ${by}, cancelled_at = now() where id = ${batchId} and status in ('draft', 'pending_release') returning id
    )
    select count(*)::int8 as n, coalesce(sum(amount_paise), 0)::int8 as total from freed`));
  return { lines: Number(row.n), totalPaise: Number(row.total) };
}

export async function queuedTotal(db: Db, batchId: number): Promise<{ lines: number; totalPaise: number }> {
  const [row] = rowsOf<LinesTotalRow>(await db.execute(sql`
    select count(*)::int8 as n, coalesce(sum(amount_paise), 0)::int8 as total from bank_transfer_lines where batch_id = ${batchId} and status = 'queued'`));
  return { lines: Number(row.n), totalPaise: Number(row.total) };
}

export async function markPendingRelease(db: Db, batchId: number, approvalId: number) {
  await db.execute(sql`update bank_batches set status = 'pending_release', approval_id = ${approvalId} where id = ${batchId}`);
}

export async function markReleased(db: Db, batchId: number, releasedBy: number, transferId: number): Promise<number> {
  // Each line released is listed in bank_in_transit by the same statement.
  const moved = rowsOf(await db.execute(sql`
    with released as (
      update bank_transfer_lines set status = 'in_transit', in_transit_since = now() where batch_id = ${batchId} and status = 'queued'
      returning id, batch_id, amount_paise, in_transit_since)
    insert into bank_in_transit (line_id, batch_id, amount_paise, since)
    select id, batch_id, amount_paise, in_transit_since from released
    returning line_id`));
  await db.execute(sql`
    update bank_batches set status = 'released', released_by = ${releasedBy}, released_at = now(), release_transfer_id = ${transferId}
     where id = ${batchId}`);
  return moved.length;
}

type LineRow = Record<string, unknown>;
/** A money request's kind, and the batch its payload names (a release's). */
type RequestRow = Pick<typeof moneyRequests.$inferSelect, 'kind'> & { batch_id: Batch['id'] | null };

const toLine = (r: LineRow): BankLine => ({
  id: Number(r.id),
  batchId: Number(r.batch_id),
  userId: Number(r.user_id),
  userName: (r.full_name as string | null) ?? null,
  ledgerEntryId: Number(r.ledger_entry_id),
  source: r.source_kind === 'bank_payout' ? 'daily_payout' : 'withdrawal',
  amount: rupees(r.amount_paise),
  beneficiaryName: r.beneficiary_name as string,
  accountNumber: maskAccountNumber(r.account_number as string),
  ifsc: r.ifsc as string,
  reference: r.reference as string,
  status: r.status as BankLineStatus,
  utr: (r.utr as string | null) ?? null,
  returnReason: (r.return_reason as string | null) ?? null,
  inTransitSince: isoOrNull(r.in_transit_since),
  settledAt: isoOrNull(r.settled_at),
  returnedAt: isoOrNull(r.returned_at),
  returnApprovalId: r.return_approval_id == null ? null : Number(r.return_approval_id),
  returnApprovalStatus: (r.return_approval_status as ApprovalStatus | null) ?? null,
});

/** A line as the screens show it: its member's name, what it pays, and the request holding its return. */
const LINE_SELECT = sql.raw(`
  t.*, u.full_name, e.kind as source_kind, r.status as return_approval_status`);
const LINE_JOINS = sql.raw(`
  left join users u on u.user_id = t.user_id
  left join ledger_entries e on e.id = t.ledger_entry_id
  left join money_requests r on r.id = t.return_approval_id`);

/** A batch's lines in line order (bank_transfer_lines_batch_idx). */
export async function listLines(db: Db, batchId: number, status: BankLineStatus | undefined, page: number, limit: number) {
  const where = sql`t.batch_id = ${batchId} ${status ? sql`and t.status = ${status}` : sql``}`;
  return pagedLines(db, where, page, limit);
}

/** The lines a bank_returns request holds or returned, in line order (bank_transfer_lines_return_approval_idx). */
export function returnLines(db: Db, approvalId: number, page: number, limit: number) {
  return pagedLines(db, sql`t.return_approval_id = ${approvalId}`, page, limit);
}

/** A money request's kind, and the batch its payload names (a release's), or null: the checker's views find their lines from it. */
export async function bankRequestOf(db: Db, approvalId: number): Promise<{ kind: string; batchId: number | null } | null> {
  const [row] = rowsOf<RequestRow>(await db.execute(sql`
    select kind, (payload->>'batchId')::int8 as batch_id from money_requests where id = ${approvalId}`));
  return row ? { kind: row.kind, batchId: row.batch_id == null ? null : Number(row.batch_id) } : null;
}

/** A member's lines, newest first (bank_transfer_lines_user_idx), cancelled ones too (history). */
export function memberLines(db: Db, userId: number, page: number, limit: number) {
  return pagedLines(db, sql`t.user_id = ${userId}`, page, limit, 'desc');
}

/** A member's money waiting to be gathered (WAITING for one member, read through their ledger lines) and whether they lack a primary account. */
export async function memberWaiting(db: Db, userId: number) {
  const [row] = rowsOf<MemberWaitingRow>(await db.execute(sql`
    select count(*)::int8 as n, coalesce(sum(w.amount_paise), 0)::int8 as total,
           not exists (select 1 from bank_accounts b where b.user_id = ${userId} and b.is_primary) as without_account
      from (${WAITING} and l.user_id = ${userId}) w`));
  return { count: Number(row.n), total: rupees(row.total), withoutAccount: Boolean(row.without_account) };
}

async function pagedLines(db: Db, where: SQL, page: number, limit: number, order: 'asc' | 'desc' = 'asc') {
  const rows = rowsOf<LineRow>(await db.execute(sql`
    select ${LINE_SELECT} from bank_transfer_lines t ${LINE_JOINS}
     where ${where} order by t.id ${sql.raw(order)} limit ${limit} offset ${(page - 1) * limit}`));
  const [{ n }] = rowsOf<CountRow>(await db.execute(sql`select count(*)::int8 as n from bank_transfer_lines t where ${where}`));
  return { data: rows.map(toLine), total: Number(n) };
}

/** Lines in transit, oldest first (bank_in_transit_since_idx), with their age in days. */
export async function inTransit(db: Db, page: number, limit: number): Promise<{ data: TransitLine[]; total: number }> {
  const rows = rowsOf<LineRow>(await db.execute(sql`
    select ${LINE_SELECT}, floor(extract(epoch from now() - t.in_transit_since) / 86400)::int as age_days
      from (select line_id, since from bank_in_transit order by since, line_id limit ${limit} offset ${(page - 1) * limit}) it
      join bank_transfer_lines t on t.id = it.line_id ${LINE_JOINS}
     order by it.since, it.line_id`));
  const [{ n }] = rowsOf<CountRow>(await db.execute(sql`select count(*)::int8 as n from bank_in_transit`));
  return { data: rows.map((r) => Object.assign(toLine(r), { ageDays: Number(r.age_days) })), total: Number(n) };
}

export interface FileLine {
  id: number;
  beneficiaryName: string;
  accountNumber: string;
  ifsc: string;
  bankName: string | null;
  amountPaise: number;
  reference: string;
  email: string | null;
  /** The ledger kind the line pays (wallet_withdrawal or bank_payout): the narration names it. */
  sourceKind: string | null;
}

/** The instruction file's lines after `afterId` (keyset, bank_transfer_lines_batch_idx), account numbers whole. */
export async function fileLines(db: Db, batchId: number, afterId: number, limit: number): Promise<FileLine[]> {
  const rows = rowsOf<LineRow>(await db.execute(sql`
    select t.id, t.beneficiary_name, t.account_number, t.ifsc, t.bank_name, t.amount_paise, t.reference, u.email, e.kind as source_kind
      from bank_transfer_lines t left join users u on u.user_id = t.user_id
      left join ledger_entries e on e.id = t.ledger_entry_id
     where t.batch_id = ${batchId} and t.id > ${afterId} and not t.cancelled order by t.id limit ${limit}`));
  return rows.map((r) => ({
    id: Number(r.id), beneficiaryName: r.beneficiary_name as string, accountNumber: r.account_number as string, ifsc: r.ifsc as string,
    bankName: (r.bank_name as string | null) ?? null, amountPaise: Number(r.amount_paise), reference: r.reference as string,
    email: (r.email as string | null) ?? null, sourceKind: (r.source_kind as string | null) ?? null,
  }));
}

/** The lines the provider sends for a released batch. */
export async function providerLines(db: Db, batchId: number): Promise<FileLine[]> {
  return fileLines(db, batchId, 0, 1_000_000);
}
