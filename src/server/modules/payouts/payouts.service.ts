import { paiseToRupees, rupeesToPaise } from '../../../contract/common.ts';
import type { TransferBody } from '../../../contract/payouts.ts';
import type { Db } from '../../db/client.ts';
import { postEntries, postEntry, type LedgerPosting } from '../../db/ledger.ts';
import type { Ctx } from '../../lib/context.ts';
import { AppError } from '../../lib/errors.ts';
import type { MoneyResult } from '../../lib/idempotency.ts';
import {
  countDailyCredit, holdForApproval, needsApproval, refuseOverDailyLimit, refuseOwnWallet, refuseSecondPending, sumReason, type MoneyContext,
} from '../approvals/four-eyes.ts';
import { requireMemberWallet } from '../wallet/wallet.service.ts';
import * as repo from './payouts.repository.ts';

export function listPayouts(ctx: Ctx, filters: repo.PayoutFilters, sort: repo.PayoutSort, page: number, limit: number) {
  return repo.listPayouts(ctx.database, filters, sort, page, limit);
}

export function payoutsBatch(ctx: Ctx, filters: repo.PayoutFilters, after: repo.PayoutKeyset | null, size: number) {
  return repo.payoutsBatch(ctx.database, filters, after, size);
}

const fixed = (paise: number) => paiseToRupees(paise).toFixed(2);

/** A payout that may be paid: it exists, is still Failure, and the body names its member and exact amount. */
async function payablePayout(tx: Db, body: TransferBody, paise: number, lock: 'claim' | 'check') {
  const payoutId = body.payoutId!;
  const payout = lock === 'claim' ? await repo.claimFailedPayout(tx, payoutId) : await repo.lockFailedPayout(tx, payoutId);
  if (!payout) {
    if ((await repo.payoutStatus(tx, payoutId)) === null) throw new AppError(404, `Payout ${payoutId} not found`);
    throw new AppError(409, `Payout ${payoutId} has already been paid`);
  }
  if (payout.userId !== body.userId) {
    throw new AppError(400, `Payout ${payoutId} belongs to member ${payout.userId}, not ${body.userId}`);
  }
  if (payout.amountPaise !== paise) {
    throw new AppError(400, `The amount must equal the payout amount of ${fixed(payout.amountPaise)}`);
  }
  return payout;
}

/**
 * The ledger lines of a payment. A Failure row the engine wrote (it has its gross) is paid as the
 * run would have paid it: +gross (daily_payout), −TDS, −admin charge (each when not zero), with
 * the run and its batch, so the member gets exactly its amount (the net) and the run's reversal
 * compensates these lines too. Any other payment is one credit of the amount.
 */
async function postPayment(tx: Db, money: MoneyContext, body: TransferBody, paise: number, payout: repo.Payable | null) {
  if (payout && payout.grossPaise !== null) {
    const common = {
      description: `Daily payout for ${payout.date}`, actorId: money.actorId,
      batchId: payout.batchId, runId: payout.runId,
    };
    // The batch names the credit only (as the run writes it): Reward Income shows the gross.
    // Each deduction names itself, so the member's history reads one payout and what was taken from it.
    // One statement (postEntries): a recovery the member owes is settled from the net, after the deductions.
    const lines: Omit<LedgerPosting, 'userId'>[] = [{ ...common, kind: 'daily_payout', amountPaise: payout.grossPaise }];
    if (payout.tdsPaise > 0) {
      lines.push({ ...common, description: `TDS on daily payout for ${payout.date}`, batchId: null, kind: 'tds', amountPaise: -payout.tdsPaise });
    }
    if (payout.adminChargePaise > 0) {
      lines.push({
        ...common, description: `Admin charge on daily payout for ${payout.date}`, batchId: null, kind: 'admin_charge', amountPaise: -payout.adminChargePaise,
      });
    }
    const posted = await postEntries(tx, body.userId, lines);
    return { entryId: posted.entryId, balancePaise: posted.balancePaise };
  }
  return postEntry(tx, {
    userId: body.userId,
    kind: body.typeIncome === 'dailyPayout' ? 'daily_payout' : 'admin_transfer',
    amountPaise: paise,
    description: payout ? `Daily payout for ${payout.date}` : 'Transfer by administrator',
    actorId: money.actorId,
  });
}

/**
 * POST /transferAdmin: credits the member's wallet. With a payoutId the payout turns Success in
 * the same transaction; the UPDATE guarded by status = 'Failure' lets exactly one of two
 * concurrent payments through, the other gets 409. Above the approval threshold the payment is
 * only filed (202; the payout row is locked while filing, so one payout gets one pending request);
 * a checker's approval runs this same function with money.approved.
 */
export async function transferAdmin(tx: Db, money: MoneyContext, body: TransferBody): Promise<MoneyResult> {
  refuseOwnWallet(money, body.userId);
  await requireMemberWallet(tx, body.userId); // staff hold no wallet (issue 22)
  const paise = rupeesToPaise(body.amount);
  if (await needsApproval(tx, money, body.userId, paise)) {
    if (body.payoutId !== undefined) {
      await payablePayout(tx, body, paise, 'check');
      await refuseSecondPending(tx, 'pay_payout', 'payoutId', body.payoutId);
    } else {
      if (!(await repo.liveMemberExists(tx, body.userId))) throw new AppError(404, `Member ${body.userId} not found`);
    }
    await refuseOverDailyLimit(tx, money, paise);
    return holdForApproval(tx, money, {
      kind: body.payoutId !== undefined ? 'pay_payout' : 'admin_transfer', userId: body.userId, amountPaise: paise, payload: body,
      reason: await sumReason(tx, money, body.userId, paise),
    });
  }
  const payout = body.payoutId !== undefined ? await payablePayout(tx, body, paise, 'claim') : null;
  const posted = await postPayment(tx, money, body, paise, payout);
  await countDailyCredit(tx, money, paise);
  if (body.payoutId !== undefined) {
    await repo.linkLedgerEntry(tx, body.payoutId, posted.entryId);
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
