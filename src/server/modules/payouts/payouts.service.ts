import { sql } from 'drizzle-orm';
import { paiseToRupees, rupeesToPaise } from '../../../contract/common.ts';
import type { TransferBody } from '../../../contract/payouts.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../plugins/errors.ts';
import type { MoneyResult } from '../../plugins/idempotency.ts';
import { rowsOf } from '../../db/client.ts';
import { postEntry } from '../../db/ledger.ts';
import {
  countDailyCredit, holdForApproval, needsApproval, refuseOverDailyLimit, refuseOwnWallet, refuseSecondPending, type MoneyContext,
} from '../approvals/four-eyes.ts';

const fixed = (paise: number) => paiseToRupees(paise).toFixed(2);

/** A payout that may be paid: it exists, is still Failure, and the body names its member and exact amount. */
async function payablePayout(tx: Db, body: TransferBody, paise: number, lock: 'claim' | 'check'): Promise<string> {
  const claimed = lock === 'claim'
    ? rowsOf<{ user_id: number; amount_paise: number; date: string }>(await tx.execute(sql`
        update daily_payouts set status = 'Success', paid_at = now()
         where id = ${body.payoutId!} and status = 'Failure'
         returning user_id, amount_paise, payout_date::text as date`))
    : rowsOf<{ user_id: number; amount_paise: number; date: string }>(await tx.execute(sql`
        select user_id, amount_paise, payout_date::text as date from daily_payouts
         where id = ${body.payoutId!} and status = 'Failure' for update`));
  if (!claimed[0]) {
    const [existing] = rowsOf<{ status: string }>(await tx.execute(sql`select status from daily_payouts where id = ${body.payoutId!}`));
    if (!existing) throw new AppError(404, `Payout ${body.payoutId} not found`);
    throw new AppError(409, `Payout ${body.payoutId} has already been paid`);
  }
  const payout = claimed[0];
  if (Number(payout.user_id) !== body.userId) {
    throw new AppError(400, `Payout ${body.payoutId} belongs to member ${payout.user_id}, not ${body.userId}`);
  }
  if (Number(payout.amount_paise) !== paise) {
    throw new AppError(400, `The amount must equal the payout amount of ${fixed(Number(payout.amount_paise))}`);
  }
  return payout.date;
}

/**
 * POST /transferAdmin: credits the member's wallet. With a payoutId the payout turns Success in
 * the same transaction; the UPDATE guarded by status = 'Failure' lets exactly one of two
 * concurrent payments through, the other gets 409. Above the approval threshold the payment is
 * only filed (202; the payout row is locked while filing, so one payout gets one pending request);
 * a checker's approval runs this same function with ctx.approved.
 */
export async function transferAdmin(tx: Db, ctx: MoneyContext, body: TransferBody): Promise<MoneyResult> {
  refuseOwnWallet(ctx, body.userId);
  const paise = rupeesToPaise(body.amount);
  if (needsApproval(ctx, paise)) {
    if (body.payoutId !== undefined) {
      await payablePayout(tx, body, paise, 'check');
      await refuseSecondPending(tx, 'pay_payout', 'payoutId', body.payoutId);
    } else {
      const [member] = rowsOf(await tx.execute(sql`select 1 from users where user_id = ${body.userId} and deleted_at is null`));
      if (!member) throw new AppError(404, `Member ${body.userId} not found`);
    }
    await refuseOverDailyLimit(tx, ctx, paise);
    return holdForApproval(tx, ctx, {
      kind: body.payoutId !== undefined ? 'pay_payout' : 'admin_transfer', userId: body.userId, amountPaise: paise, payload: body,
    });
  }
  const payoutDate = body.payoutId !== undefined ? await payablePayout(tx, body, paise, 'claim') : null;
  const posted = await postEntry(tx, {
    userId: body.userId,
    kind: body.typeIncome === 'dailyPayout' ? 'daily_payout' : 'admin_transfer',
    amountPaise: paise,
    description: payoutDate ? `Daily payout for ${payoutDate}` : 'Transfer by administrator',
    actorId: ctx.actorId,
  });
  await countDailyCredit(tx, ctx, paise);
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
