import type { BankBatchStatus, BankFileTemplate, BankLineStatus, bankTransfersApi } from '../../../contract/bank-transfers.ts';
import type { ReplyOf } from '../../../contract/endpoint.ts';
import { GENERIC_FILE_COLUMNS, HDFC_FILE_COLUMNS } from '../../../contract/bank-transfers.ts';
import { paiseToRupees } from '../../../contract/common.ts';
import { post } from '../../db/books.ts';
import type { Db } from '../../db/client.ts';
import { audit } from '../../lib/audit.ts';
import { actorId, type Ctx } from '../../lib/context.ts';
import type { CsvCell } from '../../lib/csv.ts';
import { AppError } from '../../lib/errors.ts';
import type { MoneyReply, MoneyResult, MoneyContext } from '../../lib/money/movement.ts';
import { formatRupees, holdForApproval } from '../../lib/money/four-eyes.ts';
import { requireWalletMember } from '../wallet/member-money.service.ts';
import { providerFor } from './bank-answers.service.ts';
import * as repo from './bank-transfers.repository.ts';

/**
 * Money out to banks (docs/bank-transfers.md): approved withdrawals gathered into batches, a batch
 * released by a second operator, its instruction file, a member's lines. The bank's answers (the
 * response file, the webhook, returns under four eyes) are in bank-answers.service.ts.
 */

/** Bank-mode payouts leave the wallet here, in the transfer that credits them (the daily run, Pay Now). */
export { sendToBank } from './bank-payout.ts';

// ---- Gather ----

export function gatherable(ctx: Ctx) {
  return repo.gatherable(ctx.database.db);
}

/** POST /bank-transfers/batches: every gatherable withdrawal into a new draft batch. */
export async function gather(ctx: Ctx, template: BankFileTemplate = 'hdfc') {
  const by = actorId(ctx);
  return ctx.database.db.transaction(async (tx) => {
    const made = await repo.gather(tx, by, template);
    if (made.lines === 0) {
      throw new AppError(409, 'No approved withdrawal is waiting to be sent to a bank (or none of their members has a primary bank account)');
    }
    await audit(tx, ctx, {
      action: 'bank_batch_gathered', entity: 'bank_batch', entityId: made.batchId,
      after: { lines: made.lines, totalPaise: made.totalPaise, template },
    });
    return (await repo.batchById(tx, made.batchId))!;
  });
}

/**
 * POST /bank-transfers/batches/:id/cancel: a draft, or a batch whose release was rejected or has
 * expired (while a release awaits its approval, the approval decides). Its lines turn 'cancelled'
 * and the next gather takes their money again; the batch stays, cancelled, as history. Nothing
 * moved in the books before a release, so nothing moves back.
 */
export async function cancelBatch(ctx: Ctx, id: number) {
  const by = actorId(ctx);
  return ctx.database.db.transaction(async (tx) => {
    const batch = await repo.lockBatch(tx, id);
    if (!batch) throw new AppError(404, `Bank batch ${id} not found`);
    if (!cancellable(batch)) {
      throw new AppError(409, batch.status === 'cancelled'
        ? `Bank batch ${id} has already been cancelled`
        : `Bank batch ${id} is ${STATUS_WORDS[batch.status]}: only a draft batch, or one whose release was rejected or has expired, can be cancelled`);
    }
    const freed = await repo.markCancelled(tx, id, by);
    await audit(tx, ctx, {
      action: 'bank_batch_cancelled', entity: 'bank_batch', entityId: id,
      before: { status: batch.status }, after: { status: 'cancelled', lines: freed.lines, totalPaise: freed.totalPaise },
    });
    return (await repo.batchById(tx, id))!;
  });
}

/** A batch nothing has released and no release request still awaits: a draft, or one whose request was rejected or expired. */
const cancellable = (b: { status: BankBatchStatus; approvalStatus: string | null }) =>
  b.status === 'draft' || (b.status === 'pending_release' && b.approvalStatus !== 'pending');

const STATUS_WORDS: Record<BankBatchStatus, string> = {
  draft: 'a draft', pending_release: 'awaiting release', released: 'released', closed: 'closed', cancelled: 'cancelled',
};

export function listBatches(ctx: Ctx, q: { status?: BankBatchStatus; page: number; limit: number }) {
  return repo.listBatches(ctx.database.db, q.status, q.page, q.limit);
}

export async function getBatch(ctx: Ctx, id: number) {
  const found = await repo.batchById(ctx.database.db, id);
  if (!found) throw new AppError(404, `Bank batch ${id} not found`);
  return found;
}

export async function listLines(ctx: Ctx, id: number, q: { status?: BankLineStatus; page: number; limit: number }) {
  await getBatch(ctx, id);
  return repo.listLines(ctx.database.db, id, q.status, q.page, q.limit);
}

/** A member's transfers to the bank, newest first, and what still waits to be gathered (404 for anything but a live member). */
export async function memberLines(ctx: Ctx, userId: number, q: { page: number; limit: number }) {
  await requireWalletMember(ctx, userId);
  const [page, waiting] = await Promise.all([
    repo.memberLines(ctx.database.db, userId, q.page, q.limit), repo.memberWaiting(ctx.database.db, userId),
  ]);
  return { ...page, waiting };
}

/** The lines a bank_batch_release request sends (its checker's view): 404 for any other request. */
export async function releaseLines(ctx: Ctx, approvalId: number, q: { page: number; limit: number }) {
  const request = await repo.bankRequestOf(ctx.database.db, approvalId);
  if (request?.kind !== 'bank_batch_release' || request.batchId === null) throw new AppError(404, `Release request ${approvalId} not found`);
  return repo.listLines(ctx.database.db, request.batchId, undefined, q.page, q.limit);
}

/** The lines a bank_returns request holds (its checker's view): 404 for any other request. */
export async function returnLines(ctx: Ctx, approvalId: number, q: { page: number; limit: number }) {
  if ((await repo.bankRequestOf(ctx.database.db, approvalId))?.kind !== 'bank_returns') throw new AppError(404, `Returns request ${approvalId} not found`);
  return repo.returnLines(ctx.database.db, approvalId, q.page, q.limit);
}

export function inTransit(ctx: Ctx, q: { page: number; limit: number }) {
  return repo.inTransit(ctx.database.db, q.page, q.limit);
}

// ---- Release: always under four eyes ----

/**
 * POST /bank-transfers/batches/:id/release: files the release for a second operator (kind
 * bank_batch_release) whatever the amount; the approval releases it (replayBankRelease). A batch
 * whose earlier request was rejected or expired may be filed again.
 */
export async function requestRelease(tx: Db, money: MoneyContext, batchId: number): Promise<MoneyResult<ReplyOf<typeof bankTransfersApi.release>>> {
  const batch = await repo.lockBatch(tx, batchId);
  if (!batch) throw new AppError(404, `Bank batch ${batchId} not found`);
  if (batch.status === 'cancelled') throw new AppError(409, `Bank batch ${batchId} was cancelled: gather a new batch`);
  if (batch.status === 'pending_release' && batch.approvalStatus === 'pending') {
    throw new AppError(409, `Bank batch ${batchId} already awaits release (request ${batch.approvalId})`);
  }
  if (batch.status === 'released' || batch.status === 'closed') throw new AppError(409, `Bank batch ${batchId} has already been released`);
  const { lines, totalPaise } = await repo.queuedTotal(tx, batchId);
  if (lines === 0) throw new AppError(409, `Bank batch ${batchId} has no line to send`);
  const held = await holdForApproval(tx, money, {
    kind: 'bank_batch_release', userId: null, amountPaise: totalPaise,
    payload: { batchId, details: { batchId, lines, total: formatRupees(totalPaise) } },
    reason: `Bank batch ${batchId} (${lines} ${lines === 1 ? 'transfer' : 'transfers'}, ${formatRupees(totalPaise)}) awaits release by a second operator`,
  });
  const approvalId = held.body.data.approvalId;
  await repo.markPendingRelease(tx, batchId, approvalId);
  return held;
}

/** What an approved release answers (the approval shows it beside the request). */
export type BankRelease = MoneyReply<{ batchId: number; lines: number; total: number; transferId: number | null }>;

/**
 * The approved release (approvals replay): ONE transfer moves the batch's total from
 * withdrawals_payable to bank_in_transit, its lines turn in transit; with the simulator provider
 * the lines are sent once the transaction has committed.
 */
export async function replayBankRelease(tx: Db, money: MoneyContext, checker: Ctx, batchId: number): Promise<MoneyResult<BankRelease>> {
  if (!Number.isSafeInteger(batchId) || batchId <= 0) throw new AppError(400, 'The request names no bank batch');
  const batch = await repo.lockBatch(tx, batchId);
  if (!batch) throw new AppError(404, `Bank batch ${batchId} not found`);
  if (batch.status === 'cancelled') throw new AppError(409, `Bank batch ${batchId} was cancelled: it cannot be released`);
  if (batch.status !== 'pending_release' || batch.approvalId !== money.approvalId) {
    throw new AppError(409, `Bank batch ${batchId} is not waiting for this release`);
  }
  if (batch.createdBy === money.actorId || money.makerId === money.actorId) {
    throw new AppError(403, 'You gathered or asked to release this batch yourself: another operator with money_approve must release it');
  }
  const { lines, totalPaise } = await repo.queuedTotal(tx, batchId);
  if (lines === 0) throw new AppError(409, `Bank batch ${batchId} has no line to send`);
  const posted = await post(tx, { kind: 'bank_release', bankBatchId: batchId, approvalId: money.approvalId, actorId: money.actorId }, [], [
    { account: 'withdrawals_payable', amountPaise: -totalPaise },
    { account: 'bank_in_transit', amountPaise: totalPaise },
  ]);
  const moved = await repo.markReleased(tx, batchId, money.actorId, posted.transferId!);
  const provider = providerFor(checker.database, checker.config);
  return {
    status: 200,
    afterCommit: provider ? () => { void repo.providerLines(checker.database.db, batchId).then((l) => provider.send(l)).catch(() => undefined); } : undefined,
    body: {
      success: true,
      message: `Bank batch ${batchId} released: ${moved} ${moved === 1 ? 'transfer' : 'transfers'} of ${formatRupees(totalPaise)} in transit`,
      data: { batchId, lines: moved, total: paiseToRupees(totalPaise), transferId: posted.transferId },
    },
    audit: {
      action: 'bank_batch_released', entity: 'bank_batch', entityId: batchId,
      before: { status: 'pending_release' },
      after: { status: 'released', lines: moved, totalPaise, transferId: posted.transferId, approvalId: money.approvalId, makerId: money.makerId },
    },
  };
}

// ---- The instruction file ----

const amountText = (paise: number) => paiseToRupees(paise).toFixed(2);

/** The value date in the bank's dd/mm/yyyy (India date). */
function indiaDate(now = new Date()): string {
  const d = new Date(now.getTime() + 330 * 60_000);
  return `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`;
}

/** The file's header and one row per line, in the template's layout (docs/bank-transfers.md). */
export function fileLayout(template: BankFileTemplate, batchId: number) {
  const narration = (l: repo.FileLine) => `${l.sourceKind === 'bank_payout' ? 'Daily payout' : 'Withdrawal'} ${l.reference}`.slice(0, 30);
  const valueDate = indiaDate();
  if (template === 'generic') {
    return {
      header: [...GENERIC_FILE_COLUMNS] as string[],
      row: (l: repo.FileLine): CsvCell[] => [l.beneficiaryName, l.accountNumber, l.ifsc, amountText(l.amountPaise), l.reference, narration(l)],
      filename: `bank-batch-${batchId}.csv`,
    };
  }
  return {
    header: [...HDFC_FILE_COLUMNS] as string[],
    row: (l: repo.FileLine): CsvCell[] => [
      // N = NEFT (R = RTGS for ₹2,00,000 and above, I = a transfer within HDFC Bank).
      l.ifsc.startsWith('HDFC') ? 'I' : l.amountPaise >= 20_000_000 ? 'R' : 'N',
      `M${l.id}`.slice(0, 13), l.accountNumber, amountText(l.amountPaise), l.beneficiaryName.slice(0, 40), l.reference,
      narration(l), valueDate, l.ifsc, l.bankName, l.email,
    ],
    filename: `bank-batch-${batchId}-hdfc.csv`,
  };
}

export async function fileBatch(ctx: Ctx, batchId: number) {
  const batch = await getBatch(ctx, batchId);
  if (batch.status !== 'released' && batch.status !== 'closed') {
    throw new AppError(409, `Bank batch ${batchId} has not been released: its file is made once a second operator releases it`);
  }
  return batch;
}

export function fileLines(ctx: Ctx, batchId: number, afterId: number, limit: number) {
  return repo.fileLines(ctx.database.db, batchId, afterId, limit);
}
