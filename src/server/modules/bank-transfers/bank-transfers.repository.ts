import { sql, type SQL } from 'drizzle-orm';
import { maskAccountNumber } from '../../../contract/banks.ts';
import type { BankBatch, BankBatchStatus, BankFileTemplate, BankLine, BankLineStatus, TransitLine } from '../../../contract/bank-transfers.ts';
import { paiseToRupees } from '../../../contract/common.ts';
import { BANK_GATHER_LOCK } from '../../db/books.ts';
import { rowsOf, type Db } from '../../db/client.ts';
import { iso, type CountRow } from '../../db/rows.ts';
import type { bankBatches, bankTransferLines } from '../../db/schema/bank-transfers.ts';
import type { users } from '../../db/schema/members.ts';

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
/** Lines of a batch and their total. */
type LinesTotalRow = { n: Batch['lines']; total: Batch['totalPaise'] };
/** The answers of one outcome planned for a batch (bank_plan, the import's temp table). */
type PlannedBatchRow = { batch_id: Batch['id']; n: number; total: Paise; release_transfer_id: Batch['releaseTransferId'] };
/** The import's answers by outcome. */
type OutcomeRow = { outcome: string; n: number; total: Paise };
/** An answer that neither settles nor returns a line, with the line's status when it names one. */
type ProblemRow = { line: number; reference: Line['reference']; outcome: string; want: string; line_status: Line['status'] | null };

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
      update bank_batches set status = 'cancelled', cancelled_by = ${by}, cancelled_at = now() where id = ${batchId} and status = 'draft' returning id
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
});

/** A batch's lines in line order (bank_transfer_lines_batch_idx). */
export async function listLines(db: Db, batchId: number, status: BankLineStatus | undefined, page: number, limit: number) {
  const where = sql`t.batch_id = ${batchId} ${status ? sql`and t.status = ${status}` : sql``}`;
  const rows = rowsOf<LineRow>(await db.execute(sql`
    select t.*, u.full_name, e.kind as source_kind from bank_transfer_lines t left join users u on u.user_id = t.user_id
      left join ledger_entries e on e.id = t.ledger_entry_id
     where ${where} order by t.id limit ${limit} offset ${(page - 1) * limit}`));
  const [{ n }] = rowsOf<CountRow>(await db.execute(sql`select count(*)::int8 as n from bank_transfer_lines t where ${where}`));
  return { data: rows.map(toLine), total: Number(n) };
}

/** Lines in transit, oldest first (bank_in_transit_since_idx), with their age in days. */
export async function inTransit(db: Db, page: number, limit: number): Promise<{ data: TransitLine[]; total: number }> {
  const rows = rowsOf<LineRow>(await db.execute(sql`
    select t.*, u.full_name, e.kind as source_kind, floor(extract(epoch from now() - t.in_transit_since) / 86400)::int as age_days
      from (select line_id, since from bank_in_transit order by since, line_id limit ${limit} offset ${(page - 1) * limit}) it
      join bank_transfer_lines t on t.id = it.line_id
      left join users u on u.user_id = t.user_id
      left join ledger_entries e on e.id = t.ledger_entry_id
     order by it.since, it.line_id`));
  const [{ n }] = rowsOf<CountRow>(await db.execute(sql`select count(*)::int8 as n from bank_in_transit`));
  return { data: rows.map((r) => ({ ...toLine(r), ageDays: Number(r.age_days) })), total: Number(n) };
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

// ---- The bank's answers (applyAnswers in the service) ----

/** One answer as staged: `want` is what it asks for (settled, returned, pending) or invalid. */
export interface StagedAnswer {
  ord: number;
  line: number;
  reference: string;
  want: 'settled' | 'returned' | 'pending' | 'invalid';
  utr: string | null;
  reason: string | null;
}

/**
 * The line id a reference names (BT<batch>-<line id>, drizzle/0036), or null: the answers find their
 * lines by primary key and then check the whole reference, so a line needs no index on its reference.
 */
const LINE_ID_OF_REFERENCE = sql.raw(`case when x.reference ~ '^BT[0-9]{1,18}-[0-9]{1,18}$' then substring(x.reference from '-([0-9]+)$')::int8 end`);

/** The answers of one call, in a temporary table of the transaction, loaded in chunks of JSON. */
export async function stageAnswers(db: Db, answers: StagedAnswer[], chunk = 50_000) {
  await db.execute(sql`drop table if exists pg_temp.bank_answers`);
  await db.execute(sql`drop table if exists pg_temp.bank_plan`);
  await db.execute(sql`
    create temp table bank_answers (ord int, line int, reference text, line_id int8, want text, utr text, reason text) on commit drop`);
  for (let i = 0; i < answers.length; i += chunk) {
    const json = JSON.stringify(answers.slice(i, i + chunk));
    await db.execute(sql`
      insert into bank_answers (ord, line, reference, line_id, want, utr, reason)
      select x.ord, x.line, x.reference, ${LINE_ID_OF_REFERENCE}, x.want, x.utr, x.reason
        from json_to_recordset(${json}::json) as x(ord int, line int, reference text, want text, utr text, reason text)`);
  }
  await db.execute(sql`create index on bank_answers (line_id)`);
  await db.execute(sql`analyze bank_answers`);
}

/**
 * Locks the batches the answers name (in id order: two imports of the same file run one after
 * the other, the second finds the lines answered), then decides each answer against its line:
 * of the answers naming one reference the first decisive one (settled or returned before pending)
 * is the one that counts, the rest are duplicates (or conflicts when they say otherwise).
 */
export async function planAnswers(db: Db) {
  await db.execute(sql`
    select b.id from bank_batches b
     where b.id in (select t.batch_id from bank_answers a join bank_transfer_lines t on t.id = a.line_id and t.reference = a.reference)
     order by b.id for update`);
  await db.execute(sql`
    create temp table bank_plan on commit drop as
    select a.ord, a.line, a.reference, a.want, a.utr, a.reason,
           t.id as line_id, t.batch_id, t.user_id, t.amount_paise, t.status as line_status, t.utr as line_utr,
           case when a.want = 'invalid' then 'invalid'
                when t.id is null then 'unknown'
                when a.rank > 1 then case when a.want = a.first_want or a.want = 'pending' then 'duplicate' else 'conflict' end
                when t.status in ('queued', 'cancelled') then 'not_released'
                when t.status = 'in_transit' and a.want = 'returned'
                     and not exists (select 1 from users u where u.user_id = t.user_id and u.deleted_at is null) then 'member_deleted'
                when t.status = 'in_transit' then a.want
                when t.status = a.want or a.want = 'pending' then 'duplicate'
                else 'conflict' end as outcome
      from (select a.*, row_number() over w as rank, first_value(a.want) over w as first_want
              from bank_answers a
            window w as (partition by a.reference order by (a.want = 'pending'), a.ord)) a
      left join bank_transfer_lines t on t.id = a.line_id and t.reference = a.reference`);
  // Without statistics the settle UPDATE's join with the plan was estimated at a handful of rows
  // and could be planned as a nested loop over the lines in transit (quadratic at 1M lines).
  await db.execute(sql`analyze bank_plan`);
}

/**
 * Returns for a member deleted since: the money cannot go back to a wallet, so the line stays in
 * transit (listed on the reconciliation view) with a note saying so, to be handled by hand.
 */
export async function noteMemberDeleted(db: Db): Promise<number> {
  const rows = rowsOf(await db.execute(sql`
    update bank_transfer_lines t
       set return_reason = 'Returned by the bank (' || coalesce(nullif(p.reason, ''), 'no reason given') || ') but the member was deleted: handle by hand'
      from bank_plan p
     where p.outcome = 'member_deleted' and t.id = p.line_id and t.status = p.line_status
    returning t.id`));
  return rows.length;
}

export async function plannedByBatch(db: Db, outcome: 'settled' | 'returned') {
  return rowsOf<PlannedBatchRow>(await db.execute(sql`
    select p.batch_id, count(*)::int8 as n, sum(p.amount_paise)::int8 as total, b.release_transfer_id
      from bank_plan p join bank_batches b on b.id = p.batch_id
     where p.outcome = ${outcome} group by p.batch_id, b.release_transfer_id order by p.batch_id`)).map((r) => ({
    batchId: Number(r.batch_id), lines: Number(r.n), totalPaise: Number(r.total),
    releaseTransferId: r.release_transfer_id === null ? null : Number(r.release_transfer_id),
  }));
}

/**
 * Settles the batch's lines the plan settles: a HOT update of each (drizzle/0037). Each line must
 * still be as the plan saw it (in transit; compared with the plan's column: see returnMarks).
 */
export async function markSettled(db: Db, batchId: number, transferId: number): Promise<number> {
  const rows = rowsOf(await db.execute(sql`
    update bank_transfer_lines t set status = 'settled', utr = p.utr, settled_at = now(), settle_transfer_id = ${transferId}
      from bank_plan p
     where p.outcome = 'settled' and p.batch_id = ${batchId} and t.id = p.line_id and t.status = p.line_status
    returning t.id`));
  return rows.length;
}

/**
 * Takes the batch's lines the plan settled or returned off bank_in_transit, in the transaction
 * that marked them (the caller has checked that every one was). Joined with the analysed plan by
 * the primary key; a join with the marking statement's own CTE was estimated at a handful of rows
 * and planned as a nested loop rescanning it for every row in transit (minutes at 1M lines).
 */
export async function offTransit(db: Db, batchId: number, outcome: 'settled' | 'returned'): Promise<number> {
  const rows = rowsOf(await db.execute(sql`
    delete from bank_in_transit it using bank_plan p
     where p.outcome = ${outcome} and p.batch_id = ${batchId} and it.line_id = p.line_id
    returning it.line_id`));
  return rows.length;
}

/** The member lines of a batch's returns, for postSet (perLine: one bank_return transfer per line). */
export const returnLines = (batchId: number): SQL => sql`
  select p.ord, null::int8 as id, p.user_id, 'bank_return'::text as kind, p.amount_paise, null::int as batch_id,
         'Returned by the bank: ' || coalesce(nullif(p.reason, ''), 'no reason given') as description,
         null::int8 as reversal_of, null::timestamptz as created_at, p.line_id, p.reason as bank_reason, p.line_status
    from bank_plan p where p.outcome = 'returned' and p.batch_id = ${batchId}`;

/**
 * Marks the returned lines with the transfer that credited each (posting_lines of the same
 * statement). The line must still have the status the plan saw (in transit): compared with the
 * plan's column, not with a constant, because a constant is estimated from the lines table's
 * statistics, which after a release still say "no line in transit", and the join was then planned
 * as a nested loop that rescanned the posted lines for every line in transit (minutes at 1M).
 */
export const returnMarks = sql`,
  bank_returned as (
    update bank_transfer_lines t
       set status = 'returned', return_reason = coalesce(nullif(l.bank_reason, ''), 'no reason given'), returned_at = now(),
           return_transfer_id = l.transfer_id
      from posting_lines l
     where t.id = l.line_id and t.status = l.line_status and (select ok from posting_ok)
    returning t.id)`;

export async function countAnswered(db: Db, batchId: number, settled: { lines: number; paise: number }, returned: { lines: number; paise: number }) {
  await db.execute(sql`
    update bank_batches
       set settled_lines = settled_lines + ${settled.lines}, settled_paise = settled_paise + ${settled.paise},
           returned_lines = returned_lines + ${returned.lines}, returned_paise = returned_paise + ${returned.paise},
           status = case when settled_lines + ${settled.lines} + returned_lines + ${returned.lines} >= lines then 'closed' else status end
     where id = ${batchId}`);
}

export async function outcomeCounts(db: Db) {
  return rowsOf<OutcomeRow>(await db.execute(sql`
    select outcome, count(*)::int8 as n, coalesce(sum(amount_paise), 0)::int8 as total from bank_plan group by outcome`));
}

export async function problems(db: Db, cap: number) {
  return rowsOf<ProblemRow>(await db.execute(sql`
    select line, reference, outcome, want, line_status from bank_plan
     where outcome not in ('settled', 'returned') order by ord limit ${cap}`));
}
