import { createHmac, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type {
  AnswerOutcome, BankBatchStatus, BankFileTemplate, BankLineStatus, bankTransfersApi, ImportSummary, WebhookBody,
} from '../../../contract/bank-transfers.ts';
import type { ReplyOf } from '../../../contract/endpoint.ts';
import { GENERIC_FILE_COLUMNS, HDFC_FILE_COLUMNS, webhookBody } from '../../../contract/bank-transfers.ts';
import { paiseToRupees } from '../../../contract/common.ts';
import { post, postSet } from '../../db/books.ts';
import type { Db } from '../../db/client.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { audit } from '../../lib/audit.ts';
import { actorId, type Ctx } from '../../lib/context.ts';
import type { CsvCell } from '../../lib/csv.ts';
import { AppError } from '../../lib/errors.ts';
import { moneyContext, type MoneyReply, type MoneyResult, type MoneyContext } from '../../lib/money/movement.ts';
import { formatRupees, holdForApproval } from '../../lib/money/four-eyes.ts';
import * as answerRepo from './bank-answers.repository.ts';
import * as repo from './bank-transfers.repository.ts';
import { parseResponseFile, type BankAnswer } from './response-file.ts';

/** Bank-mode payouts leave the wallet here, in the transfer that credits them (the daily run, Pay Now). */
export { sendToBank } from './bank-payout.ts';
import { simulatorProvider, type PayoutProvider } from './provider.ts';

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

/** A member's transfers to the bank, newest first, and what still waits to be gathered (404 for no member). */
export async function memberLines(ctx: Ctx, userId: number, q: { page: number; limit: number }) {
  if (!(await repo.isMember(ctx.database.db, userId))) throw new AppError(404, `Member ${userId} not found`);
  const [page, waiting] = await Promise.all([
    repo.memberLines(ctx.database.db, userId, q.page, q.limit), repo.memberWaiting(ctx.database.db, userId),
  ]);
  return { ...page, waiting };
}

/** The lines a bank_returns request holds (its checker's view): 404 for any other request. */
export async function returnLines(ctx: Ctx, approvalId: number, q: { page: number; limit: number }) {
  if (!(await repo.isReturnsRequest(ctx.database.db, approvalId))) throw new AppError(404, `Returns request ${approvalId} not found`);
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

// ---- The bank's answers: one function for the response file and the webhook ----


const REJECTED = new Set(['REJECTED', 'REJECT', 'RETURNED', 'RETURN', 'FAILED', 'FAILURE', 'FAIL', 'REVERSED', 'R']);
/**
 * A bank that has not decided yet may already give the transfer its UTR: such a status never
 * settles (it did, and a later rejection was then a conflict, the member's money lost in between).
 */
const UNDECIDED = new Set(['PENDING', 'IN PROGRESS', 'INPROGRESS', 'IN_PROGRESS', 'PROCESSING', 'ON HOLD', 'ONHOLD', 'ON_HOLD', 'HOLD', 'QUEUED', 'INITIATED', 'SUBMITTED', 'P']);

/** What an answer asks for: a rejection returns, a UTR settles, anything else (an undecided status) leaves the line in transit. */
export function wantOf(a: BankAnswer): answerRepo.StagedAnswer['want'] {
  if (!a.reference.trim()) return 'invalid';
  const status = a.status.trim().toUpperCase().replace(/\s+/g, ' ');
  if (REJECTED.has(status)) return 'returned';
  if (UNDECIDED.has(status)) return 'pending';
  return a.utr && a.utr.trim() ? 'settled' : 'pending';
}

const MESSAGES: Record<AnswerOutcome, string> = {
  settled: 'Settled',
  returned: 'Returned to the member\u2019s wallet',
  held: 'Returned by the bank: the return awaits approval by a second operator',
  pending: 'No UTR and not rejected: stays in transit',
  duplicate: 'Already applied: nothing moved',
  unknown: 'No transfer has this reference',
  conflict: 'Contradicts the answer already applied: not applied',
  not_released: 'Its batch has not been released: not applied',
  invalid: 'No reference on this line',
  member_deleted: 'Returned by the bank, but the member has been deleted: not credited, the money stays in transit (handle by hand)',
};

const PROBLEMS_CAP = 1000;
const sqlReturned = sql`(select count(*) from bank_returned)::int8 as "returnedLines"`;

/**
 * Applies the bank's answers, set-based: staged in chunks, decided against their lines under the
 * batches' locks, then per batch ONE settle transfer (bank_in_transit -> company_bank) and one
 * bank_return transfer per returned line (the member's wallet credited, correcting the release),
 * each line marked in the same statement. An answer that repeats what was applied moves nothing.
 */
export async function applyAnswers(tx: Db, actor: number | null, answers: BankAnswer[], how: HowApplied = {}): Promise<ImportSummary> {
  await answerRepo.stageAnswers(tx, answers.map((a, ord) => ({
    ord, line: a.line, reference: a.reference.trim(), want: wantOf(a),
    utr: a.utr?.trim() || null, reason: a.reason?.trim() || null,
  })));
  await answerRepo.planAnswers(tx, how.releasing ?? null);
  const held = how.holdReturns ? await holdReturnsFor(tx, how.holdReturns) : null;
  const perBatch = new Map<number, { settled: { lines: number; paise: number }; returned: { lines: number; paise: number } }>();
  const of = (id: number) => perBatch.get(id) ?? perBatch.set(id, { settled: { lines: 0, paise: 0 }, returned: { lines: 0, paise: 0 } }).get(id)!;
  for (const b of await answerRepo.plannedByBatch(tx, 'settled')) {
    const posted = await post(tx, { kind: 'bank_settle', bankBatchId: b.batchId, actorId: actor, system: actor === null ? 'bank webhook' : undefined }, [], [
      { account: 'bank_in_transit', amountPaise: -b.totalPaise },
      { account: 'company_bank', amountPaise: b.totalPaise },
    ]);
    const marked = await answerRepo.markSettled(tx, b.batchId, posted.transferId!);
    if (marked !== b.lines) throw new Error(`Bank batch ${b.batchId}: ${b.lines} lines to settle, ${marked} marked`);
    const off = await answerRepo.offTransit(tx, b.batchId, 'settled');
    if (off !== b.lines) throw new Error(`Bank batch ${b.batchId}: ${b.lines} lines settled, ${off} taken off the lines in transit`);
    of(b.batchId).settled = { lines: b.lines, paise: b.totalPaise };
  }
  for (const b of await answerRepo.plannedByBatch(tx, 'returned')) {
    const posted = await postSet(tx, {
      kind: 'bank_return', bankBatchId: b.batchId, actorId: actor, corrects: b.releaseTransferId, approvalId: how.releasing ?? null,
      system: actor === null ? 'bank webhook' : undefined,
    }, { perLine: true, lines: answerRepo.returnLines(b.batchId), also: answerRepo.returnMarks, select: sqlReturned });
    const marked = Number(posted.row.returnedLines);
    if (posted.lines !== b.lines || marked !== b.lines) throw new Error(`Bank batch ${b.batchId}: ${b.lines} lines to return, ${posted.lines} credited, ${marked} marked`);
    const off = await answerRepo.offTransit(tx, b.batchId, 'returned');
    if (off !== b.lines) throw new Error(`Bank batch ${b.batchId}: ${b.lines} lines returned, ${off} taken off the lines in transit`);
    of(b.batchId).returned = { lines: b.lines, paise: b.totalPaise };
  }
  for (const [batchId, n] of perBatch) await answerRepo.countAnswered(tx, batchId, n.settled, n.returned);
  await answerRepo.noteMemberDeleted(tx);
  const counts = new Map((await answerRepo.outcomeCounts(tx)).map((r) => [r.outcome, { n: Number(r.n), total: Number(r.total) }]));
  const n = (o: AnswerOutcome) => counts.get(o)?.n ?? 0;
  const problems = await answerRepo.problems(tx, PROBLEMS_CAP + 1);
  const problemTotal = answers.length - n('settled') - n('returned') - n('held');
  return {
    answers: answers.length,
    settled: n('settled'),
    returned: n('returned'),
    held: n('held'),
    heldAmount: paiseToRupees(counts.get('held')?.total ?? 0),
    returnsApprovalId: held?.approvalId ?? null,
    duplicates: n('duplicate'),
    unknown: n('unknown'),
    pending: n('pending'),
    conflicts: n('conflict'),
    notReleased: n('not_released'),
    invalid: n('invalid'),
    memberDeleted: n('member_deleted'),
    settledAmount: paiseToRupees(counts.get('settled')?.total ?? 0),
    returnedAmount: paiseToRupees(counts.get('returned')?.total ?? 0),
    problems: problems.slice(0, PROBLEMS_CAP).map((p) => ({
      line: p.line, reference: p.reference, outcome: p.outcome as AnswerOutcome,
      message: p.note ?? (p.outcome === 'conflict' ? `${MESSAGES.conflict} (the line is ${p.line_status})` : MESSAGES[p.outcome as AnswerOutcome]),
    })),
    problemsCapped: problemTotal > PROBLEMS_CAP,
  };
}


/** How answers are applied: an operator's file holds its returns for a second operator; an approval releases them. */
interface HowApplied {
  /** The importing operator's ctx: the file's rejections wait for a second operator (one bank_returns request). */
  holdReturns?: Ctx;
  /** The bank_returns request being approved: its held lines are answerable, and its transfers name it. */
  releasing?: number;
}

/**
 * The file's rejections, held: one bank_returns request for all of them (filed with its audit row),
 * named on each line. Nothing moves until a second operator approves it (replayBankReturns).
 */
async function holdReturnsFor(tx: Db, ctx: Ctx) {
  const { lines, totalPaise } = await answerRepo.holdReturns(tx);
  if (lines === 0) return null;
  const filed = await holdForApproval(tx, moneyContext(ctx), {
    kind: 'bank_returns', userId: null, amountPaise: totalPaise,
    payload: { details: { lines, total: formatRupees(totalPaise) } },
    reason: `${lines} ${lines === 1 ? 'return' : 'returns'} from the bank (${formatRupees(totalPaise)}) await approval by a second operator`,
  });
  await audit(tx, ctx, filed.audit);
  const approvalId = filed.body.data.approvalId;
  const marked = await answerRepo.markHeld(tx, approvalId);
  if (marked !== lines) throw new Error(`${lines} returns to hold, ${marked} lines marked`);
  return { approvalId, lines, totalPaise };
}

/** POST /bank-transfers/responses: settlements apply at once; the file's rejections wait for a second operator. */
export async function importResponse(ctx: Ctx, text: string) {
  const answers = parseResponseFile(text);
  if (answers.length === 0) throw new AppError(400, 'The response file has no line');
  const by = actorId(ctx);
  return ctx.database.db.transaction(async (tx) => {
    const summary = await applyAnswers(tx, by, answers, { holdReturns: ctx });
    await audit(tx, ctx, {
      action: 'bank_response_imported', entity: 'bank_response', entityId: null,
      after: { answers: summary.answers, settled: summary.settled, returned: summary.returned, held: summary.held,
        returnsApprovalId: summary.returnsApprovalId, duplicates: summary.duplicates,
        unknown: summary.unknown, pending: summary.pending, conflicts: summary.conflicts },
    });
    return summary;
  });
}

/** What an approved bank_returns request answers (the approval shows it beside the request). */
export type BankReturnsReply = MoneyReply<{ lines: number; returned: number; total: number; memberDeleted: number }>;

/**
 * The approved returns (approvals replay): the request's held lines still in transit are returned
 * as the file said, through applyAnswers (one bank_return transfer per line, naming the request).
 * The importer never approves their own (approvals refuse the maker), nor a checker whose own
 * wallet one of the lines credits.
 */
export async function replayBankReturns(tx: Db, money: MoneyContext): Promise<MoneyResult<BankReturnsReply>> {
  const approvalId = money.approvalId;
  if (!money.approved || !approvalId) throw new AppError(400, 'Returns from the bank are applied only by approving their request');
  const lines = await answerRepo.heldLines(tx, approvalId);
  if (lines.length === 0) throw new AppError(409, 'None of its lines is still in transit: nothing to return (reject the request)');
  if (lines.some((l) => l.userId === money.actorId)) {
    throw new AppError(403, 'One of these returns credits your own wallet: another operator must approve it');
  }
  const summary = await applyAnswers(tx, money.actorId,
    lines.map((l, i) => ({ line: i + 1, reference: l.reference, status: 'REJECTED', reason: l.reason ?? undefined })),
    { releasing: approvalId });
  return {
    status: 200,
    body: {
      success: true,
      message: `${summary.returned} ${summary.returned === 1 ? 'return' : 'returns'} of ${formatRupees(Math.round(summary.returnedAmount * 100))} credited to members’ wallets`
        + (summary.memberDeleted ? `; ${summary.memberDeleted} for members deleted since stay in transit (handle by hand)` : ''),
      data: { lines: lines.length, returned: summary.returned, total: summary.returnedAmount, memberDeleted: summary.memberDeleted },
    },
    audit: {
      action: 'bank_returns_applied', entity: 'money_request', entityId: approvalId,
      after: { lines: lines.length, returned: summary.returned, returnedAmount: summary.returnedAmount, memberDeleted: summary.memberDeleted,
        makerId: money.makerId, checkerId: money.actorId },
    },
  };
}

export function summaryMessage(s: ImportSummary): string {
  return `Settled ${s.settled}, returned ${s.returned}`
    + (s.held ? `, returns awaiting approval ${s.held} (request ${s.returnsApprovalId})` : '') + `, duplicates ${s.duplicates}, unknown ${s.unknown}`
    + (s.pending ? `, still in transit ${s.pending}` : '') + (s.conflicts ? `, conflicts ${s.conflicts}` : '')
    + (s.notReleased ? `, not released ${s.notReleased}` : '') + (s.invalid ? `, invalid ${s.invalid}` : '')
    + (s.memberDeleted ? `, member deleted (handle by hand) ${s.memberDeleted}` : '');
}

// ---- The provider's webhook ----

export function signWebhook(secret: string, raw: string): string {
  return createHmac('sha256', secret).update(raw).digest('hex');
}

/** Refuses a webhook before its body is read: 503 without a secret, 401 with a missing or wrong signature. */
export function verifyWebhook(config: Config, raw: string, signature: string | undefined): void {
  if (!config.bankWebhookSecret) throw new AppError(503, 'Bank webhooks are not set up on this server (BANK_WEBHOOK_SECRET)');
  if (!signatureMatches(config.bankWebhookSecret, raw, signature)) throw new AppError(401, 'The webhook signature is missing or wrong');
}

function signatureMatches(secret: string, raw: string, given: string | undefined): boolean {
  if (!given) return false;
  const hex = given.trim().replace(/^sha256=/i, '');
  if (!/^[0-9a-f]{64}$/i.test(hex)) return false;
  return timingSafeEqual(Buffer.from(hex.toLowerCase(), 'hex'), Buffer.from(signWebhook(secret, raw), 'hex'));
}

/**
 * POST /bank-transfers/webhook: the signature (HMAC-SHA256 of the raw body with the configured
 * secret) is checked before anything is read; the answer is applied as a response file's line is,
 * so a replayed webhook is a duplicate and moves nothing.
 */
export async function receiveWebhook(database: Database, config: Config, raw: string, signature: string | undefined) {
  verifyWebhook(config, raw, signature);
  let body: WebhookBody;
  try {
    body = webhookBody.parse(JSON.parse(raw));
  } catch {
    throw new AppError(400, 'The webhook body is not a valid bank answer');
  }
  return database.db.transaction(async (tx) => {
    const summary = await applyAnswers(tx, null, [{ line: 0, reference: body.reference, status: body.status, utr: body.utr, reason: body.reason }]);
    const outcome: AnswerOutcome = summary.settled ? 'settled' : summary.returned ? 'returned' : summary.problems[0]?.outcome ?? 'pending';
    // Every webhook applied is audited, a replay too (marked duplicate): the provider acted, no operator.
    await audit(tx, null, {
      action: 'bank_webhook_applied', entity: 'bank_transfer_line', entityId: body.reference,
      after: {
        provider: config.bankProvider === 'simulator' ? 'simulator' : 'payout provider', reference: body.reference, status: body.status, utr: body.utr ?? null,
        reason: body.reason ?? null, eventId: body.eventId ?? null, outcome, duplicate: outcome === 'duplicate',
      },
    });
    return { line: 0, reference: body.reference, outcome, message: summary.problems[0]?.message ?? MESSAGES[outcome] };
  });
}

/** The provider a released batch is sent through: the simulator when BANK_PROVIDER=simulator, else none (the operator uploads the file). */
export function providerFor(database: Database, config: Config): PayoutProvider | null {
  if (config.bankProvider !== 'simulator') return null;
  return simulatorProvider({
    secret: config.bankWebhookSecret,
    deliver: async (raw, signature) => { await receiveWebhook(database, config, raw, signature); },
  });
}
