import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client.ts';
import type { bankBatches, bankTransferLines } from '../../db/schema/bank-transfers.ts';

/**
 * Money out to banks: the bank's answers (applyAnswers in the service). A call's answers are
 * staged in a temporary table, decided against their lines (bank_plan), then the lines are marked
 * per batch; the money moves through db/books.ts (the service posts).
 */

type Batch = typeof bankBatches.$inferSelect;
type Line = typeof bankTransferLines.$inferSelect;
type Paise = Batch['totalPaise'];
/** The answers of one outcome planned for a batch (bank_plan, the import's temp table). */
type PlannedBatchRow = { batch_id: Batch['id']; n: number; total: Paise; release_transfer_id: Batch['releaseTransferId'] };
/** The import's answers by outcome. */
type OutcomeRow = { outcome: string; n: number; total: Paise };
/** An answer that neither settles nor returns a line, with the line's status when it names one. */
/** A line a bank_returns request holds. */
type HeldLineRow = Pick<Line, 'id' | 'reference'> & { user_id: Line['userId']; return_reason: Line['returnReason'] };
/** How many answers, and their total. */
type CountRow = { n: number; total: Paise };
type ProblemRow = { line: number; reference: Line['reference']; outcome: string; want: string; line_status: Line['status'] | null; note: string | null };

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
 *
 * A line whose return awaits a second operator (a pending bank_returns request) counts as
 * answered: another rejection is a duplicate, a settlement a conflict, each with the request's
 * number. `releasing` is the request being approved: its own lines are answerable.
 */
export async function planAnswers(db: Db, releasing: number | null = null) {
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
                when t.status = 'in_transit' and h.id is not null then case when a.want = 'settled' then 'conflict' else 'duplicate' end
                when t.status = 'in_transit' and a.want = 'returned'
                     and not exists (select 1 from users u where u.user_id = t.user_id and u.deleted_at is null) then 'member_deleted'
                when t.status = 'in_transit' and a.want = 'settled' and u.note is not null then 'conflict'
                when t.status = 'in_transit' then a.want
                when t.status = 'settled' and a.want = 'settled' and u.note is not null then 'conflict'
                when t.status = a.want or a.want = 'pending' then 'duplicate'
                else 'conflict' end as outcome,
           coalesce(case when t.status = 'in_transit' and h.id is not null
                         then 'Its return awaits approval (request ' || h.id || '): not applied' end, u.note) as note
      from (select a.*, row_number() over w as rank, first_value(a.want) over w as first_want,
                   first_value(a.reference) over (partition by a.utr, a.want = 'settled' order by a.ord) as utr_first_reference
              from bank_answers a
            window w as (partition by a.reference order by (a.want = 'pending'), a.ord)) a
      left join bank_transfer_lines t on t.id = a.line_id and t.reference = a.reference
      left join money_requests h on h.id = t.return_approval_id and h.status = 'pending' and h.id is distinct from ${releasing}::int8
      -- One bank transaction pays one line: a UTR kept for another line, or given to another line
      -- earlier in this answer, settles nothing; nor does a settled line answered again with
      -- another UTR (not the same answer).
      left join lateral (
        select case
                 when t.status = 'in_transit' and a.utr_first_reference <> a.reference
                   then 'UTR ' || a.utr || ' is also given to ' || a.utr_first_reference || ' in this answer: not applied'
                 when t.status = 'in_transit' and exists (select 1 from bank_utrs k where k.utr = a.utr and k.line_id <> t.id)
                   then 'UTR ' || a.utr || ' already settled another transfer: not applied'
                 when t.status = 'settled' and a.utr is distinct from t.utr
                   then 'Settled before with UTR ' || coalesce(t.utr, 'none') || '; this answer gives UTR ' || a.utr || ': not applied'
               end as note
         where a.want = 'settled' and a.rank = 1) u on true`);
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

/**
 * A file's rejections wait for a second operator: the plan's returns turn 'held' (the summary
 * counts them), and answers the plan had found duplicates of them stay so.
 */
export async function holdReturns(db: Db): Promise<{ lines: number; totalPaise: number }> {
  const [row] = rowsOf<CountRow>(await db.execute(sql`
    with held as (update bank_plan set outcome = 'held' where outcome = 'returned' returning amount_paise)
    select count(*)::int8 as n, coalesce(sum(amount_paise), 0)::int8 as total from held`));
  return { lines: Number(row.n), totalPaise: Number(row.total) };
}

/** Names the request on the held lines, with the bank's reason, which the approval applies. */
export async function markHeld(db: Db, approvalId: number): Promise<number> {
  const rows = rowsOf(await db.execute(sql`
    update bank_transfer_lines t
       set return_approval_id = ${approvalId}, return_reason = coalesce(nullif(p.reason, ''), 'no reason given')
      from bank_plan p
     where p.outcome = 'held' and t.id = p.line_id and t.status = 'in_transit'
    returning t.id`));
  return rows.length;
}

/** The lines a bank_returns request holds, still in transit, in id order (its index). */
export async function heldLines(db: Db, approvalId: number) {
  return rowsOf<HeldLineRow>(await db.execute(sql`
    select id, reference, user_id, return_reason from bank_transfer_lines
     where return_approval_id = ${approvalId} and status = 'in_transit' order by id`)).map((r) => ({
    id: Number(r.id), reference: r.reference, userId: Number(r.user_id), reason: r.return_reason,
  }));
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
    with settled as (
      update bank_transfer_lines t set status = 'settled', utr = p.utr, settled_at = now(), settle_transfer_id = ${transferId}
        from bank_plan p
       where p.outcome = 'settled' and p.batch_id = ${batchId} and t.id = p.line_id and t.status = p.line_status
      returning t.id, t.utr
    ), kept as (
      -- Each UTR once (its primary key): a UTR another import settled meanwhile refuses this one.
      insert into bank_utrs (utr, line_id) select utr, id from settled
    )
    select id from settled`));
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
    select line, reference, outcome, want, line_status, note from bank_plan
     where outcome not in ('settled', 'returned', 'held') order by ord limit ${cap}`));
}
