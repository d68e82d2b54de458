import { sql } from 'drizzle-orm';
import { postSet, type TransferCause } from '../../db/books.ts';
import type { Db } from '../../db/client.ts';

/**
 * Bank-mode daily payouts (settings payTo 'bank', issue 25, docs/bank-transfers.md): what a
 * payout's transfer left in each member's wallet — its net, less what the recovery trigger
 * (drizzle/functions/recovery.sql) took from it in that same transfer — leaves the wallet again as
 * a `bank_payout` line (counter-leg withdrawals_payable, "to send") and is gathered into a bank
 * batch as an approved withdrawal is. One statement for the whole transfer (a run's chunk of
 * 40,000 members, or one Pay Now), added to that transfer, and written AFTER its credits: in the
 * same statement the trigger would see a net of zero and never recover. A member with nothing
 * left (all of it recovered) gets no line. The chunk's lines are found through the BRIN index on
 * ledger_entries.transfer_id (they were just appended together).
 */
export async function sendToBank(tx: Db, transferId: number, cause: TransferCause, day: string) {
  const description = `Daily payout for ${day} paid to bank`;
  return postSet(tx, { kind: 'bank_payout', into: transferId, ...cause, description }, {
    with: sql`
      bank_sent as materialized (
        select l.user_id, sum(l.amount_paise)::int8 as net from ledger_entries l where l.transfer_id = ${transferId}::int8 group by l.user_id
      )`,
    lines: sql`
      select s.user_id as ord, null::int8 as id, s.user_id, 'bank_payout'::text as kind, -s.net as amount_paise, null::int as batch_id,
             ${description}::text as description, null::int8 as reversal_of
        from bank_sent s where s.net > 0`,
  });
}
