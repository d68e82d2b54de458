import { sql } from 'drizzle-orm';
import { paiseToRupees } from '../../contract/common.ts';
import { rowsOf, type Db } from './client.ts';
import { iso } from './rows.ts';
import type { users } from './schema/members.ts';
import type { LedgerKind, ledgerEntries } from './schema/money.ts';
import { AppError } from '../lib/errors.ts';

type Ledger = typeof ledgerEntries.$inferSelect;
type Balance = Pick<typeof users.$inferSelect, 'balancePaise'>;
/** The posting statement's answer: raw SQL gives the timestamp as the driver reads it (text or Date). */
type Posted = Pick<Ledger, 'id'> & Balance & { createdAt: Date | string; owes: boolean };

export interface LedgerPosting {
  userId: number;
  kind: LedgerKind;
  /** Signed: credits positive, debits negative; never zero. */
  amountPaise: number;
  description?: string | null;
  batchId?: number | null;
  actorId?: number | null;
  /** The engine run the row belongs to (a Pay Now of a run's Failure row): the run's reversal compensates it. */
  runId?: number | null;
}

export interface PostedEntry {
  entryId: number;
  userId: number;
  amountPaise: number;
  balancePaise: number;
  createdAt: string;
}

const rupees = (paise: number) => paiseToRupees(paise).toFixed(2);

/**
 * The one way money moves, in one statement of the caller's transaction: the UPDATE locks the
 * member's row and moves the cached balance only if it stays at or above zero (re-checked on the
 * newest row version when a concurrent posting got there first), and the immutable ledger row is
 * inserted only if it did. When nothing moved, a second look says why: no such member, or a
 * debit the balance can't cover (nothing is written). The CHECK users_balance_not_negative is the
 * last line of defence.
 */
export async function postEntry(tx: Db, posting: LedgerPosting): Promise<PostedEntry> {
  if (!Number.isSafeInteger(posting.amountPaise) || posting.amountPaise === 0) {
    throw new AppError(400, 'Amount must be a non-zero whole number of paise');
  }
  const [posted] = rowsOf<Posted>(await tx.execute(sql`
    with moved as (
      update users set balance_paise = balance_paise + ${posting.amountPaise}
       where user_id = ${posting.userId} and deleted_at is null and balance_paise + ${posting.amountPaise} >= 0
      returning user_id, balance_paise, recovery_paise > 0 as owes
    ), entry as (
      insert into ledger_entries (user_id, kind, amount_paise, batch_id, description, actor_id, run_id)
      select user_id, ${posting.kind}::text, ${posting.amountPaise}::int8, ${posting.batchId ?? null}::int,
             ${posting.description ?? null}::text, ${posting.actorId ?? null}::int8, ${posting.runId ?? null}::int8
        from moved
      returning id, created_at
    )
    select entry.id, entry.created_at as "createdAt", moved.balance_paise as "balancePaise", moved.owes from moved, entry`));
  if (!posted) {
    const [member] = rowsOf<Balance>(await tx.execute(sql`
      select balance_paise as "balancePaise" from users where user_id = ${posting.userId} and deleted_at is null`));
    if (!member) throw new AppError(404, `Member ${posting.userId} not found`);
    const balance = member.balancePaise;
    throw new AppError(
      400,
      `Insufficient wallet balance: the member has ${rupees(balance)} and ${rupees(-posting.amountPaise)} was requested`,
    );
  }
  return {
    entryId: posted.id,
    userId: posting.userId,
    amountPaise: posting.amountPaise,
    balancePaise: posted.owes && posting.amountPaise > 0 ? await settledBalance(tx, posting.userId) : Number(posted.balancePaise),
    createdAt: iso(posted.createdAt),
  };
}

/**
 * The balance after the statement's triggers: a credit to a member who owes a recovery is settled
 * by drizzle/functions/recovery.sql after the posting statement, which therefore answered the
 * balance before it. Read again only then (a debtor is rare; the usual credit costs nothing more).
 */
async function settledBalance(tx: Db, userId: number): Promise<number> {
  const [row] = rowsOf<Balance>(await tx.execute(sql`select balance_paise as "balancePaise" from users where user_id = ${userId}`));
  return Number(row.balancePaise);
}

/**
 * Several lines of one member in one statement (Pay Now of an engine Failure row: +gross, −TDS,
 * −admin charge): the balance moves by their sum only if it stays at or above zero, and the rows
 * are inserted in the order given. One statement, so a recovery the member owes is settled from
 * the lines' net (drizzle/functions/recovery.sql), never from the gross before its deductions.
 * Answers the first line's id and the balance after everything (the recovery included).
 */
export async function postEntries(tx: Db, userId: number, lines: Omit<LedgerPosting, 'userId'>[]): Promise<PostedEntry> {
  if (lines.length === 0 || lines.some((l) => !Number.isSafeInteger(l.amountPaise) || l.amountPaise === 0)) {
    throw new AppError(400, 'Amount must be a non-zero whole number of paise');
  }
  const total = lines.reduce((sum, l) => sum + l.amountPaise, 0);
  const values = sql.join(
    lines.map((l, i) => sql`(${i}::int, ${l.kind}::text, ${l.amountPaise}::int8, ${l.batchId ?? null}::int, ${l.description ?? null}::text,
                             ${l.actorId ?? null}::int8, ${l.runId ?? null}::int8)`),
    sql`, `,
  );
  const [posted] = rowsOf<Posted>(await tx.execute(sql`
    with moved as (
      update users set balance_paise = balance_paise + ${total}
       where user_id = ${userId} and deleted_at is null and balance_paise + ${total} >= 0
      returning user_id, balance_paise, recovery_paise > 0 as owes
    ), entry as (
      insert into ledger_entries (user_id, kind, amount_paise, batch_id, description, actor_id, run_id)
      select moved.user_id, v.kind, v.amount, v.batch_id, v.description, v.actor_id, v.run_id
        from moved, (values ${values}) v(ord, kind, amount, batch_id, description, actor_id, run_id)
       order by v.ord
      returning id, created_at
    )
    select (select min(id) from entry) as id, (select min(created_at) from entry) as "createdAt",
           moved.balance_paise as "balancePaise", moved.owes from moved`));
  if (!posted) {
    const [member] = rowsOf<Balance>(await tx.execute(sql`
      select balance_paise as "balancePaise" from users where user_id = ${userId} and deleted_at is null`));
    if (!member) throw new AppError(404, `Member ${userId} not found`);
    throw new AppError(400, `Insufficient wallet balance: the member has ${rupees(member.balancePaise)} and ${rupees(-total)} was requested`);
  }
  return {
    entryId: Number(posted.id),
    userId,
    amountPaise: total,
    balancePaise: posted.owes && total > 0 ? await settledBalance(tx, userId) : Number(posted.balancePaise),
    createdAt: iso(posted.createdAt),
  };
}
