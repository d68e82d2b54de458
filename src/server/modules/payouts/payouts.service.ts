import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { paiseToRupees, rupeesToPaise } from '../../../contract/common.ts';
import type { TransferBody } from '../../../contract/payouts.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../plugins/errors.ts';
import type { MoneyResult } from '../../plugins/idempotency.ts';
import { rowsOf } from '../../db/client.ts';
import { postEntry } from '../../db/ledger.ts';

const fixed = (paise: number) => paiseToRupees(paise).toFixed(2);

/**
 * POST /transferAdmin: credits the member's wallet. With a payoutId the payout turns Success in
 * the same transaction; the UPDATE guarded by status = 'Failure' lets exactly one of two
 * concurrent payments through, the other gets 409.
 */
export async function transferAdmin(tx: Db, request: FastifyRequest, body: TransferBody): Promise<MoneyResult> {
  const paise = rupeesToPaise(body.amount);
  const actorId = request.auth!.userId;
  let payoutDate: string | null = null;
  if (body.payoutId !== undefined) {
    const [claimed] = rowsOf<{ user_id: number; amount_paise: number; date: string }>(await tx.execute(sql`
      update daily_payouts set status = 'Success', paid_at = now()
       where id = ${body.payoutId} and status = 'Failure'
       returning user_id, amount_paise, payout_date::text as date`));
    if (!claimed) {
      const [existing] = rowsOf<{ status: string }>(await tx.execute(sql`select status from daily_payouts where id = ${body.payoutId}`));
      if (!existing) throw new AppError(404, `Payout ${body.payoutId} not found`);
      throw new AppError(409, `Payout ${body.payoutId} has already been paid`);
    }
    if (Number(claimed.user_id) !== body.userId) {
      throw new AppError(400, `Payout ${body.payoutId} belongs to member ${claimed.user_id}, not ${body.userId}`);
    }
    if (Number(claimed.amount_paise) !== paise) {
      throw new AppError(400, `The amount must equal the payout amount of ${fixed(Number(claimed.amount_paise))}`);
    }
    payoutDate = claimed.date;
  }
  const posted = await postEntry(tx, {
    userId: body.userId,
    kind: body.typeIncome === 'dailyPayout' ? 'daily_payout' : 'admin_transfer',
    amountPaise: paise,
    description: payoutDate ? `Daily payout for ${payoutDate}` : 'Transfer by administrator',
    actorId,
  });
  if (body.payoutId !== undefined) {
    await tx.execute(sql`update daily_payouts set ledger_entry_id = ${posted.entryId} where id = ${body.payoutId}`);
  }
  const after = { userId: body.userId, typeIncome: body.typeIncome, amountPaise: paise, ledgerEntryId: posted.entryId, balancePaise: posted.balancePaise };
  return {
    audit: body.payoutId !== undefined
      ? { action: 'pay_payout', entity: 'daily_payout', entityId: body.payoutId, before: { status: 'Failure' }, after: { ...after, status: 'Success' } }
      : { action: 'admin_transfer', entity: 'ledger_entry', entityId: posted.entryId, after },
    status: 200,
    body: {
      success: true,
      message: 'Payment processed successfully',
      data: {
        transactionId: posted.entryId,
        userId: body.userId,
        amount: body.amount,
        balance: paiseToRupees(posted.balancePaise),
        payoutId: body.payoutId ?? null,
        status: body.payoutId !== undefined ? 'Success' : null,
      },
    },
  };
}
