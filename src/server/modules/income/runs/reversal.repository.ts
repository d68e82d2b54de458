import { sql, type SQL } from 'drizzle-orm';
import { postSet } from '../../../db/books.ts';
import { rowsOf, type Db } from '../../../db/client.ts';
import type { CountRow, ExistsRow } from '../../../db/rows.ts';
import type { users } from '../../../db/schema/members.ts';
import type { ledgerEntries, moneyRequests } from '../../../db/schema/money.ts';
import { inRange, type MemberRange } from './kind.ts';

/** A reversal's reads and writes (reversal.ts): the run's money, its approval, and its ranges of members. */

type Paise = (typeof ledgerEntries.$inferSelect)['amountPaise'];
/** What a run's ledger rows add up to. */
type NetRow = { net: Paise };
/** How many members the next range holds, and its last one. */
type RangeEndRow = CountRow & { last: (typeof users.$inferSelect)['userId'] | null };

/**
 * What the run credited in all, net of its deductions (and of any Pay Now lines written on its
 * Failure rows); what it sent on to the bank (bank_payout) is not a deduction: it was paid.
 */
export async function runNetPaise(db: Db, runId: number): Promise<number> {
  const [row] = rowsOf<NetRow>(await db.execute(sql`
    select coalesce(sum(amount_paise), 0)::int8 as net from ledger_entries where run_id = ${runId} and reversal_of is null and kind <> 'bank_payout'`));
  return Number(row.net);
}

/** True when the run wrote a ledger row of this member (an operator never reverses their own money). */
export async function paidInRun(db: Db, runId: number, userId: number): Promise<boolean> {
  const [row] = rowsOf<ExistsRow>(await db.execute(sql`
    select exists (select 1 from ledger_entries where user_id = ${userId} and run_id = ${runId}) as yes`));
  return Boolean(row.yes);
}

/** The pending approval request reversing this run, if there is one. */
export async function pendingReversal(db: Db, runId: number): Promise<number | null> {
  const [row] = rowsOf<Pick<typeof moneyRequests.$inferSelect, 'id'>>(await db.execute(sql`
    select id::int8 as id from money_requests
     where status = 'pending' and kind = 'run_reversal' and payload->>'runId' = ${String(runId)} limit 1`));
  return row ? Number(row.id) : null;
}


/**
 * What a reversal does to a range of members, as CTEs `orig` (the run's ledger rows not yet
 * compensated, with each member's credits, debits and the credits before each row) and `comp`
 * (per row: what is taken back, `back`, given the member's balance now). The reversal
 * (`compensate`) writes from it and its preview (`reversalPreview`) adds it up: one definition, so
 * the dialog and the reversal cannot disagree.
 */
function reversalRows(runId: number, members: MemberRange): SQL {
  const ofRun = sql`l.run_id = ${runId}::int8 and ${inRange(sql`l.user_id`, members)} and l.reversal_of is null`;
  // A bank_payout line a live bank batch holds is not reversed: its money is (or will be) at the
  // bank; the wallet gives back what it can and the rest is a shortfall, as for money spent.
  return sql`
    orig as materialized (
      select l.id, l.user_id, l.kind, l.amount_paise as amount, l.batch_id, l.actor_id,
             sum(greatest(l.amount_paise, 0)) over per_user as credits,
             sum(greatest(-l.amount_paise, 0)) over per_user as debits,
             coalesce(sum(greatest(l.amount_paise, 0)) over (partition by l.user_id order by l.id
                      rows between unbounded preceding and 1 preceding), 0) as before
        from ledger_entries l
       where ${ofRun}
         and not exists (select 1 from ledger_entries r where r.reversal_of = l.id)
         and not (l.kind = 'bank_payout' and exists (select 1 from bank_transfer_lines t where t.ledger_entry_id = l.id and not t.cancelled))
      window per_user as (partition by l.user_id)
    ),
    comp as materialized (
      select o.id, o.user_id, o.kind, o.batch_id, o.amount, o.credits::int8 as credits,
             least(o.credits, u.balance_paise + o.debits)::int8 as takeable,
             (case when o.amount < 0 then -o.amount
                   else -least(o.amount, greatest(least(o.credits, u.balance_paise + o.debits) - o.before, 0)) end)::int8 as back
        from orig o join users u on u.user_id = o.user_id
    )`;
}

export interface Compensated {
  lines: number;
  members: number;
  shortfallPaise: number;
  shortfallMembers: number;
}

/**
 * The reversal's ledger part for one range of members, set-based: their rows are locked first (in
 * user order, so two reversals never deadlock), then one statement writes a compensating row per
 * ledger row of the run, moves every balance in one UPDATE and records the shortfalls. Per member:
 * debits are given back in full; credits are taken back in id order as far as balance + debits
 * covers. A member's rows are all in one range, so the rule sees all of them at once. A shortfall
 * is also a recovery the member owes (issue 22): the same UPDATE adds it to users.recovery_paise,
 * and their next credits settle it (drizzle/functions/recovery.sql). The compensating rows are
 * reversal rows, which never settle a recovery themselves.
 */
export async function compensate(db: Db, runId: number, actorId: number, members: MemberRange): Promise<Compensated> {
  const ofRun = sql`l.run_id = ${runId}::int8 and ${inRange(sql`l.user_id`, members)} and l.reversal_of is null`;
  await db.execute(sql`
    select u.user_id from users u
     where u.user_id in (select l.user_id from ledger_entries l where ${ofRun})
     order by u.user_id for update of u`);
  const description = `Reversal of run ${runId}`;
  // One transfer (db/books.ts): the compensating lines, their counter-legs by kind, and for what
  // could not be taken back the run's expense given back in full against what the members owe.
  const posted = await postSet(db, { kind: 'run_reversal', runId, actorId, description }, {
    with: reversalRows(runId, members),
    lines: sql`
      select id as ord, null::int8 as id, user_id, kind, back as amount_paise, batch_id, ${description}::text as description, id as reversal_of
        from comp where back <> 0`,
    // From comp alone (it carries each row's amount): a join of two CTEs is planned blind, and at
    // scale it was a nested loop rescanning a spilled CTE (bench/results.md, issue 25).
    legs: sql`
      select x.account, sum(x.amount)::int8 as amount_paise
        from (select book_account(c.kind) as account, (c.amount + c.back)::int8 as amount from comp c where c.amount > 0
              union all
              select 'recoveries_owed', -(c.amount + c.back)::int8 from comp c where c.amount > 0) x
       group by x.account`,
    select: sql`(select count(distinct user_id) from posting_lines)::int8 as members,
           (select coalesce(json_agg(json_build_object('userId', user_id, 'short', short) order by user_id), '[]')
              from (select user_id, max(credits - takeable)::int8 as short from comp group by user_id) s where short > 0) as shorts`,
    // A member deleted since the run is compensated too: otherwise the run could never be reversed
    // (a first range answered 404, a later one stopped the worker with the run half reversed).
    deletedToo: true,
  });
  const raw = posted.row.shorts;
  const shorts = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { userId: number; short: number }[];
  if (shorts.length > 0) {
    // What the reversal could not take back is owed (issue 22): the member's next credits settle it.
    await db.execute(sql`
      with s as (select * from json_to_recordset(${JSON.stringify(shorts)}::json) as s("userId" int8, short int8)),
      owed as (
        update users u set recovery_paise = u.recovery_paise + s.short from s where u.user_id = s."userId" returning u.user_id
      )
      insert into run_shortfalls (run_id, user_id, shortfall_paise)
      select ${runId}::int8, "userId", short from s order by "userId"`);
  }
  return {
    lines: posted.lines, members: Number(posted.row.members),
    shortfallPaise: shorts.reduce((sum, x) => sum + Number(x.short), 0), shortfallMembers: shorts.length,
  };
}

/**
 * Starts a reversal: the run turns 'reversing' (its period stays taken until it is 'reversed'),
 * with who reverses it and why; its first slice's cursor starts again from the first member.
 */
export async function beginReversal(db: Db, runId: number, actorId: number, reversal: Record<string, unknown>) {
  await db.execute(sql`
    update income_runs
       set status = 'reversing', reversed_by = ${actorId}, cursors = '{0}'::int8[], slice_ends = '{}'::int8[],
           state = state || jsonb_build_object('reversal', ${JSON.stringify(reversal)}::jsonb)
     where run_id = ${runId}`);
}

/**
 * The last member of the next range of at most `size` members with ledger rows in the run after
 * `after` (read off ledger_run_idx), or null when fewer are left: the range then has no end, so
 * it also holds every member of the run without a ledger row (Failure rows, promotions).
 */
export async function reversalRangeEnd(db: Db, runId: number, after: number, size: number): Promise<number | null> {
  const [row] = rowsOf<RangeEndRow>(await db.execute(sql`
    select count(*)::int8 as n, max(user_id)::int8 as last from (
      select distinct l.user_id from ledger_entries l
       where l.run_id = ${runId}::int8 and l.user_id > ${after}::int8 order by l.user_id limit ${size}) m`));
  return Number(row.n) < size ? null : Number(row.last);
}

/**
 * A reversal chunk's bookkeeping, guarded by the cursor it started from: the cursor moves to the
 * range's end, the shortfall and the reversal's counts add up in the run, and the last range
 * turns the run 'reversed'.
 */
export async function advanceReversal(db: Db, runId: number, members: MemberRange, done: Compensated): Promise<boolean> {
  const last = members.upTo === null;
  const rows = rowsOf(await db.execute(sql`
    update income_runs
       set cursors[1] = ${last ? -1 : members.upTo}::int8, error = null, shortfall_paise = shortfall_paise + ${done.shortfallPaise}::int8,
           state = jsonb_set(state, '{reversal}', state->'reversal' || jsonb_build_object(
             'lines', coalesce((state->'reversal'->>'lines')::int8, 0) + ${done.lines}::int8,
             'members', coalesce((state->'reversal'->>'members')::int8, 0) + ${done.members}::int8,
             'shortfallPaise', coalesce((state->'reversal'->>'shortfallPaise')::int8, 0) + ${done.shortfallPaise}::int8,
             'shortfallMembers', coalesce((state->'reversal'->>'shortfallMembers')::int8, 0) + ${done.shortfallMembers}::int8)),
           status = case when ${last} then 'reversed' else status end,
           reversed_at = case when ${last} then now() else reversed_at end
     where run_id = ${runId} and status = 'reversing' and cursors[1] = ${members.after}::int8
     returning run_id`));
  return rows.length === 1;
}

/**
 * What reversing the whole run would do now (issue 24): the same rows `compensate` works from, over
 * every member, added up as the reversal adds them up (lines written, members whose balance moves,
 * shortfalls), with the run's gross, deductions and the Pay Now lines among them; and the Failure
 * rows never paid, which are marked Reversed with it.
 */
export async function reversalPreview(db: Db, runId: number) {
  const all: MemberRange = { after: 0, upTo: null };
  const [row] = rowsOf<Record<string, unknown>>(await db.execute(sql`
    with ${reversalRows(runId, all)},
    per_user as (
      select user_id, sum(back) as total, max(credits - takeable) as short from comp group by user_id
    )
    select (select count(*) from comp where back <> 0)::int8 as lines,
           -- Every member with a line taken back, even when those lines net to zero (paid to bank).
           (select count(distinct user_id) from comp where back <> 0)::int8 as members,
           (select coalesce(sum(amount) filter (where amount > 0), 0) from orig)::int8 as gross,
           (select coalesce(-sum(amount) filter (where amount < 0 and kind <> 'bank_payout'), 0) from orig)::int8 as deductions,
           (select coalesce(-sum(amount) filter (where kind = 'bank_payout'), 0) from orig)::int8 as "bankUnsent",
           (select coalesce(-sum(l.amount_paise), 0) from ledger_entries l
             where l.run_id = ${runId}::int8 and l.kind = 'bank_payout' and l.reversal_of is null
               and not exists (select 1 from ledger_entries r where r.reversal_of = l.id)
               and exists (select 1 from bank_transfer_lines t where t.ledger_entry_id = l.id and not t.cancelled))::int8 as "bankSent",
           (select coalesce(-sum(back), 0) from comp)::int8 as "takenBack",
           (select coalesce(sum(short) filter (where short > 0), 0) from per_user)::int8 as shortfall,
           (select count(*) filter (where short > 0) from per_user)::int8 as "shortfallMembers",
           (select count(*) from orig where actor_id is not null)::int8 as "payNowLines",
           (select count(distinct user_id) from orig where actor_id is not null)::int8 as "payNowMembers",
           (select count(*) from daily_payouts where run_id = ${runId}::int8 and status = 'Failure')::int8 as "unpaidFailures"`));
  const n = (k: string) => Number(row[k]);
  return {
    lines: n('lines'), members: n('members'), grossPaise: n('gross'), deductionsPaise: n('deductions'), takenBackPaise: n('takenBack'),
    shortfallPaise: n('shortfall'), shortfallMembers: n('shortfallMembers'), payNowLines: n('payNowLines'), payNowMembers: n('payNowMembers'),
    unpaidFailures: n('unpaidFailures'), bankUnsentPaise: n('bankUnsent'), bankSentPaise: n('bankSent'),
  };
}
