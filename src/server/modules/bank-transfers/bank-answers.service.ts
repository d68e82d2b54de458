import { createHmac, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { AnswerOutcome, ImportSummary, WebhookBody } from '../../../contract/bank-transfers.ts';
import { webhookBody } from '../../../contract/bank-transfers.ts';
import { paiseToRupees, rupeesToPaise } from '../../../contract/common.ts';
import { post, postSet } from '../../db/books.ts';
import type { Db, Database } from '../../db/client.ts';
import type { Config } from '../../config.ts';
import { audit } from '../../lib/audit.ts';
import { actorId, type Ctx } from '../../lib/context.ts';
import { AppError } from '../../lib/errors.ts';
import { moneyContext, type MoneyReply, type MoneyResult, type MoneyContext } from '../../lib/money/movement.ts';
import { formatRupees, holdForApproval } from '../../lib/money/four-eyes.ts';
import * as answerRepo from './bank-answers.repository.ts';
import { simulatorProvider, type PayoutProvider } from './provider.ts';
import { parseResponseFile, type BankAnswer } from './response-file.ts';

/**
 * Money out to banks: the bank's answers (docs/bank-transfers.md). One function applies them all,
 * the response file an operator imports, the provider's signed webhook and an approved request of
 * returns: settled lines move to the company's bank, returned lines back to the members' wallets;
 * a file's returns wait for a second operator. Batches, their release and the instruction file
 * are in bank-transfers.service.ts.
 */

// ---- The answers ----

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
      message: `${summary.returned} ${summary.returned === 1 ? 'return' : 'returns'} of ${formatRupees(rupeesToPaise(summary.returnedAmount))} credited to members’ wallets`
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
