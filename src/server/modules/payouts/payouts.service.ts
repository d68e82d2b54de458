import { paiseToRupees, rupeesToPaise } from '../../../contract/common.ts';
import type { payoutsApi, TransferBody } from '../../../contract/payouts.ts';
import type { ReplyOf } from '../../../contract/endpoint.ts';
import type { Db } from '../../db/client.ts';
import { postEntries, postEntry, type LedgerPosting } from '../../db/books.ts';
import type { Ctx } from '../../lib/context.ts';
import { AppError } from '../../lib/errors.ts';
import type { MoneyResult, MoneyContext } from '../../lib/money/movement.ts';
import {
  countDailyCredit, holdForApproval, needsApproval, refuseOverDailyLimit, refuseOwnWallet, refuseSecondPending, sumReason,
} from '../../lib/money/four-eyes.ts';
import { sendToBank } from '../bank-transfers/bank-transfers.service.ts';
import * as repo from './payouts.repository.ts';

export function listPayouts(ctx: Ctx, filters: repo.PayoutFilters, sort: repo.PayoutSort, page: number, limit: number) {
  return repo.listPayouts(ctx.database, filters, sort, page, limit);
}

export function payoutsBatch(ctx: Ctx, filters: repo.PayoutFilters, after: repo.PayoutKeyset | null, size: number) {
  return repo.payoutsBatch(ctx.database, filters, after, size);
}

const fixed = (paise: number) => paiseToRupees(paise).toFixed(2);

/** A payout held in a pending bulk request is paid by that request's approval, not by a second Pay Now. */
async function refuseInPendingBulk(tx: Db, payoutId: number) {
  const pending = (await repo.pendingPayoutRequests(tx, [payoutId])).get(payoutId);
  if (pending !== undefined) throw new AppError(409, `Payout ${payoutId} already awaits approval (request ${pending})`);
}

/** A payout that may be paid: it exists, is still Failure, and the body names its member and exact amount. */
async function payablePayout(tx: Db, body: TransferBody, paise: number, lock: 'claim' | 'check') {
  const payoutId = body.payoutId!;
  const payout = lock === 'claim' ? await repo.claimFailedPayout(tx, payoutId) : await repo.lockFailedPayout(tx, payoutId);
  if (!payout) {
    const status = await repo.payoutStatus(tx, payoutId);
    if (status === null) throw new AppError(404, `Payout ${payoutId} not found`);
    if (status === 'Reversed') throw new AppError(409, `Payout ${payoutId} was reversed with its run: it cannot be paid`);
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
    const cause = { actorId: money.actorId, approvalId: money.approvalId, runId: payout.runId, batchId: payout.batchId };
    const posted = await postEntries(tx, { userId: body.userId, ...cause }, lines);
    if (payout.payTo !== 'bank') return { entryId: posted.entryId, balancePaise: posted.balancePaise };
    // The run paid to bank (issue 25): what reached the wallet goes on to the bank, one more line in this transfer.
    const sent = await sendToBank(tx, posted.transferId, cause, payout.date);
    return { entryId: posted.entryId, balancePaise: posted.balancePaise + sent.totalPaise };
  }
  return postEntry(tx, {
    userId: body.userId,
    kind: body.typeIncome === 'dailyPayout' ? 'daily_payout' : 'admin_transfer',
    amountPaise: paise,
    description: payout ? `Daily payout for ${payout.date}` : 'Transfer by administrator',
    actorId: money.actorId,
    approvalId: money.approvalId,
  });
}

/**
 * POST /transferAdmin: credits the member's wallet. With a payoutId the payout turns Success in
 * the same transaction; the UPDATE guarded by status = 'Failure' lets exactly one of two
 * concurrent payments through, the other gets 409. Above the approval threshold the payment is
 * only filed (202; the payout row is locked while filing, so one payout gets one pending request);
 * a checker's approval runs this same function with money.approved.
 */
export async function transferAdmin(tx: Db, money: MoneyContext, body: TransferBody): Promise<MoneyResult<ReplyOf<typeof payoutsApi.transfer>>> {
  refuseOwnWallet(money, body.userId);
  const paise = rupeesToPaise(body.amount);
  // The payout's run first (a reversal takes its run first too), so Pay Now and a reversal of its run never deadlock.
  if (body.payoutId !== undefined) await repo.lockRunsOf(tx, [body.payoutId]);
  // Anyone but a live member (staff hold no wallet: issue 22) is refused there with 404.
  if (await needsApproval(tx, money, body.userId, paise)) {
    if (body.payoutId !== undefined) {
      await payablePayout(tx, body, paise, 'check');
      await refuseSecondPending(tx, 'pay_payout', 'payoutId', body.payoutId);
      await refuseInPendingBulk(tx, body.payoutId);
    }
    await refuseOverDailyLimit(tx, money, paise);
    return holdForApproval(tx, money, {
      kind: body.payoutId !== undefined ? 'pay_payout' : 'admin_transfer', userId: body.userId, amountPaise: paise, payload: body,
      reason: await sumReason(tx, money, body.userId, paise),
    });
  }
  if (body.payoutId !== undefined && !money.approved) await refuseInPendingBulk(tx, body.payoutId);
  const payout = body.payoutId !== undefined ? await payablePayout(tx, body, paise, 'claim') : null;
  const posted = await postPayment(tx, money, body, paise, payout);
  if (body.payoutId !== undefined) {
    await repo.linkLedgerEntry(tx, body.payoutId, posted.entryId);
    await repo.countPaidNow(tx, payout!);
  }
  const after = { userId: body.userId, typeIncome: body.typeIncome, amountPaise: paise, ledgerEntryId: posted.entryId, balancePaise: posted.balancePaise };
  return {
    // The maker's counter is counted last, just before the commit (a row all their movements lock).
    dailyCount: { money, paise, direction: 'credit' },
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

type BulkDone = { id: number; note?: string };
type BulkFailed = { id: number; message: string };

const messageOf = (error: unknown) => (error instanceof AppError ? error.message : 'Payment failed');

/**
 * Bulk Pay Now (issue 24), one request of at most 500 payouts, in one transaction. The payouts'
 * runs, then the payouts are locked in id order, so two identical bulks at once run one after the
 * other and the second finds them paid ("Already paid", never twice). Each Failure payout goes
 * through the rules of a single Pay Now, in its own savepoint (a refusal leaves the others): own
 * wallet, staff hold no wallet, the summed per operator/member/day threshold (needsApproval
 * reserves, so a bulk split into chunks or bulks never avoids it), the daily credit limit. The
 * payouts the threshold holds are not filed one by one: they go into ONE approval request for the
 * bulk (kind pay_payout_bulk; a later chunk of the same `bulkId` and maker adds to it), which the
 * approval pays as a whole (`replayBulkPayouts`). A retried chunk with the same Idempotency-Key
 * gets the stored answer (the route's `idempotent`).
 */
export async function payBulk(tx: Db, money: MoneyContext, body: { ids: number[]; bulkId?: string }): Promise<MoneyResult<ReplyOf<typeof payoutsApi.payBulk>>> {
  const ids = [...new Set(body.ids)].sort((a, b) => a - b);
  const done: BulkDone[] = [];
  const failed: BulkFailed[] = [];
  await repo.lockRunsOf(tx, ids);
  const rows = new Map((await repo.lockPayouts(tx, ids)).map((r) => [r.id, r]));
  const pending = await repo.pendingPayoutRequests(tx, ids);
  const held: { id: number; paise: number }[] = [];
  let paidPaise = 0;
  for (const id of ids) {
    const row = rows.get(id);
    if (!row) { failed.push({ id, message: `Payout ${id} not found` }); continue; }
    if (row.status === 'Success') { done.push({ id, note: 'Already paid' }); continue; }
    if (row.status === 'Reversed') { failed.push({ id, message: 'Reversed with its run: it cannot be paid' }); continue; }
    const request = pending.get(id);
    if (request !== undefined) { done.push({ id, note: `Already awaits approval (request ${request})` }); continue; }
    try {
      const outcome = await tx.transaction(async (sp) => {
        refuseOwnWallet(money, row.userId);
        // needsApproval refuses anyone but a live member (staff hold no wallet): 404.
        if (!money.approved && (await needsApproval(sp, money, row.userId, row.amountPaise))) return 'held' as const;
        if (money.approved) await needsApproval(sp, money, row.userId, row.amountPaise);
        const payout = await repo.claimFailedPayout(sp, id);
        if (!payout) throw new AppError(409, `Payout ${id} has already been paid`);
        const body1: TransferBody = { userId: row.userId, amount: paiseToRupees(row.amountPaise), typeIncome: 'dailyPayout', payoutId: id };
        const posted = await postPayment(sp, money, body1, row.amountPaise, payout);
        await countDailyCredit(sp, money, row.amountPaise);
        await repo.linkLedgerEntry(sp, id, posted.entryId);
        await repo.countPaidNow(sp, payout);
        return 'paid' as const;
      });
      if (outcome === 'held') held.push({ id, paise: row.amountPaise });
      else { done.push({ id, note: 'Paid' }); paidPaise += row.amountPaise; }
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      failed.push({ id, message: messageOf(error) });
    }
  }
  let approvalId: number | null = null;
  if (held.length > 0) {
    const heldIds = held.map((h) => h.id);
    const heldPaise = held.reduce((a, h) => a + h.paise, 0);
    await refuseOverDailyLimit(tx, money, heldPaise).catch((error: unknown) => {
      // Held payouts that could never fit in today's credit limit are refused now, as a single Pay Now is.
      for (const id of heldIds) failed.push({ id, message: messageOf(error) });
      heldIds.length = 0;
    });
    if (heldIds.length > 0) {
      approvalId = body.bulkId ? await repo.addToPendingBulk(tx, money.makerId, body.bulkId, heldIds, heldPaise) : null;
      if (approvalId === null) {
        const filed = await holdForApproval(tx, money, {
          kind: 'pay_payout_bulk', userId: null, amountPaise: heldPaise,
          payload: { payoutIds: heldIds, ...(body.bulkId ? { bulkId: body.bulkId } : {}) },
        });
        approvalId = filed.body.data.approvalId;
      }
      for (const id of heldIds) done.push({ id, note: `Awaits approval (request ${approvalId})` });
    }
  }
  done.sort((a, b) => a.id - b.id);
  failed.sort((a, b) => a.id - b.id);
  const paid = done.filter((d) => d.note === 'Paid').length;
  const parts = [`${paid} paid`];
  if (done.length > paid) parts.push(`${done.length - paid} already paid or awaiting approval`);
  if (failed.length > 0) parts.push(`${failed.length} not paid`);
  return {
    status: 200,
    body: { success: true, message: parts.join(', '), data: { done, failed, approvalId } },
    audit: {
      action: money.approved ? 'pay_payout_bulk_approved' : 'pay_payout_bulk', entity: 'daily_payout', entityId: ids[0],
      after: { ids, paid: done.filter((d) => d.note === 'Paid').map((d) => d.id), paidPaise, held: held.map((h) => h.id), approvalId, failed, makerId: money.makerId },
    },
  };
}

/** An approved bulk request: its payouts paid as the bulk would pay them, with the checker as actor. */
export async function replayBulkPayouts(tx: Db, money: MoneyContext, payload: { payoutIds?: unknown[] }): Promise<MoneyResult<ReplyOf<typeof payoutsApi.payBulk>>> {
  const ids = (payload.payoutIds ?? []).map(Number).filter((n) => Number.isSafeInteger(n) && n > 0);
  if (ids.length === 0) throw new AppError(400, 'The request names no payouts');
  // Approving the request is what was pending on these payouts: the pending check must not refuse them.
  return payBulk(tx, money, { ids });
}

export function failedPayoutIds(ctx: Ctx, filters: repo.PayoutFilters, cap: number) {
  return repo.failedPayoutIds(ctx.database, filters, cap);
}
