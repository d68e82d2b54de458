import { sql } from 'drizzle-orm';
import { paiseToRupees } from '../../contract/common.ts';
import { rowsOf, type Db } from './client.ts';
import type { LedgerKind } from './schema/money.ts';
import { AppError } from '../plugins/errors.ts';

export interface LedgerPosting {
  userId: number;
  kind: LedgerKind;
  /** Signed: credits positive, debits negative; never zero. */
  amountPaise: number;
  description?: string | null;
  batchId?: number | null;
  actorId?: number | null;
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
 * The one way money moves: locks the member's row, refuses a debit the balance can't cover
 * (nothing is written), inserts the immutable ledger row and moves the cached balance, all in
 * the caller's transaction. The CHECK users_balance_not_negative is the last line of defence.
 */
export async function postEntry(tx: Db, posting: LedgerPosting): Promise<PostedEntry> {
  if (!Number.isSafeInteger(posting.amountPaise) || posting.amountPaise === 0) {
    throw new AppError(400, 'Amount must be a non-zero whole number of paise');
  }
  const [member] = rowsOf<{ balance_paise: number | string; deleted: boolean }>(await tx.execute(sql`
    select balance_paise, deleted_at is not null as deleted from users where user_id = ${posting.userId} for update`));
  if (!member || member.deleted) throw new AppError(404, `Member ${posting.userId} not found`);
  const balance = Number(member.balance_paise);
  if (balance + posting.amountPaise < 0) {
    throw new AppError(
      400,
      `Insufficient wallet balance: the member has ${rupees(balance)} and ${rupees(-posting.amountPaise)} was requested`,
    );
  }
  const [entry] = rowsOf<{ id: number | string; created_at: Date | string }>(await tx.execute(sql`
    insert into ledger_entries (user_id, kind, amount_paise, batch_id, description, actor_id)
    values (${posting.userId}, ${posting.kind}, ${posting.amountPaise}, ${posting.batchId ?? null},
            ${posting.description ?? null}, ${posting.actorId ?? null})
    returning id, created_at`));
  const [after] = rowsOf<{ balance_paise: number | string }>(await tx.execute(sql`
    update users set balance_paise = balance_paise + ${posting.amountPaise}
     where user_id = ${posting.userId} returning balance_paise`));
  return {
    entryId: Number(entry.id),
    userId: posting.userId,
    amountPaise: posting.amountPaise,
    balancePaise: Number(after.balance_paise),
    createdAt: new Date(entry.created_at).toISOString(),
  };
}
