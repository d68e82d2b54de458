import { z } from 'zod';
import { approvalStatus, awaitingApprovalResponse } from './approvals.ts';
import { pageOf, paging } from './common.ts';
import { userIdParams } from './wallet.ts';
import { endpoints } from './endpoint.ts';

/**
 * Money out to banks (issue 25, docs/bank-transfers.md): approved withdrawals gather into bank
 * transfer batches, a second operator releases a batch (four eyes), the bank's instruction file is
 * downloaded, and the bank's answers (its response file, or the payout provider's signed webhook)
 * settle a line or return its money to the member's wallet, exactly once.
 */
export const BANK_BATCH_STATUSES = ['draft', 'pending_release', 'released', 'closed', 'cancelled'] as const;
export const BANK_LINE_STATUSES = ['queued', 'in_transit', 'settled', 'returned', 'cancelled'] as const;
export const bankBatchStatus = z.enum(BANK_BATCH_STATUSES, { error: 'status must be draft, pending_release, released, closed or cancelled' });
export const bankLineStatus = z.enum(BANK_LINE_STATUSES, { error: 'status must be queued, in_transit, settled, returned or cancelled' });
export type BankBatchStatus = z.infer<typeof bankBatchStatus>;
export type BankLineStatus = z.infer<typeof bankLineStatus>;

export const BANK_BATCH_STATUS_LABELS: Record<BankBatchStatus, string> = {
  draft: 'Draft', pending_release: 'Awaiting release', released: 'Released', closed: 'Closed', cancelled: 'Cancelled',
};
export const BANK_LINE_STATUS_LABELS: Record<BankLineStatus, string> = {
  queued: 'Queued', in_transit: 'In transit', settled: 'Settled', returned: 'Returned', cancelled: 'Cancelled',
};

/** What a line pays: an approved withdrawal, or a bank-mode daily payout (ledger kind bank_payout). */
export const BANK_LINE_SOURCES = ['withdrawal', 'daily_payout'] as const;
export type BankLineSource = (typeof BANK_LINE_SOURCES)[number];
export const BANK_LINE_SOURCE_LABELS: Record<BankLineSource, string> = { withdrawal: 'Withdrawal', daily_payout: 'Daily payout' };

/**
 * The instruction file's layouts. The default follows HDFC Bank's bulk NEFT/RTGS upload (the
 * columns docs/bank-transfers.md lists; check them against the bank's current specification
 * before the first real upload); `generic` is the plain documented template.
 */
export const BANK_FILE_TEMPLATES = ['hdfc', 'generic'] as const;
export const bankFileTemplate = z.enum(BANK_FILE_TEMPLATES, { error: 'template must be hdfc or generic' });
export type BankFileTemplate = z.infer<typeof bankFileTemplate>;
export const GENERIC_FILE_COLUMNS = ['Beneficiary Name', 'Account Number', 'IFSC', 'Amount', 'Reference', 'Narration'] as const;
export const HDFC_FILE_COLUMNS = [
  'Transaction Type', 'Beneficiary Code', 'Beneficiary Account Number', 'Instrument Amount', 'Beneficiary Name',
  'Customer Reference Number', 'Payment Details', 'Value Date', 'IFSC Code', 'Beneficiary Bank Name', 'Beneficiary Email ID',
] as const;

export const bankBatch = z.object({
  id: z.number(),
  status: bankBatchStatus,
  template: bankFileTemplate,
  lines: z.number(),
  /** Rupees. */
  total: z.number(),
  settledLines: z.number(),
  settled: z.number(),
  returnedLines: z.number(),
  returned: z.number(),
  /** Lines neither settled nor returned yet (queued or in transit). */
  openLines: z.number(),
  createdBy: z.number(),
  createdByName: z.string().nullable(),
  releasedBy: z.number().nullable(),
  releasedByName: z.string().nullable(),
  approvalId: z.number().nullable(),
  /** The approval's status while the release waits (pending), or how it ended. */
  approvalStatus: z.string().nullable(),
  createdAt: z.string(),
  releasedAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
});
export type BankBatch = z.infer<typeof bankBatch>;

export const bankLine = z.object({
  id: z.number(),
  batchId: z.number(),
  userId: z.number(),
  userName: z.string().nullable(),
  ledgerEntryId: z.number(),
  source: z.enum(BANK_LINE_SOURCES),
  amount: z.number(),
  beneficiaryName: z.string(),
  /** Masked on screen: all but the last four digits hidden (the file carries it whole). */
  accountNumber: z.string(),
  ifsc: z.string(),
  reference: z.string(),
  status: bankLineStatus,
  utr: z.string().nullable(),
  returnReason: z.string().nullable(),
  inTransitSince: z.string().nullable(),
  settledAt: z.string().nullable(),
  returnedAt: z.string().nullable(),
  /** The bank_returns request that holds (or held) the line's return: a file's rejection waits for a second operator. */
  returnApprovalId: z.number().nullable(),
  returnApprovalStatus: approvalStatus.nullable(),
});
export type BankLine = z.infer<typeof bankLine>;

/** A member's approved withdrawals not yet gathered into a batch: what the next gather sends, or cannot (no primary account). */
export const memberWaiting = z.object({ count: z.number(), total: z.number(), withoutAccount: z.boolean() });
export type MemberWaiting = z.infer<typeof memberWaiting>;
/** A member's transfers to the bank, newest first, and what still waits to be gathered. */
export const memberLinesResponse = pageOf(bankLine).extend({ waiting: memberWaiting });
export type MemberLinesPage = z.infer<typeof memberLinesResponse>;

/** A line in transit on the reconciliation view, with its age in whole days since release. */
export const transitLine = bankLine.extend({ ageDays: z.number() });
export type TransitLine = z.infer<typeof transitLine>;

/** An approved withdrawal that cannot be gathered, and why. */
export const notGatherable = z.object({
  ledgerEntryId: z.number(),
  userId: z.number(),
  userName: z.string().nullable(),
  amount: z.number(),
  reason: z.string(),
});

export const gatherableResponse = z.object({
  success: z.literal(true),
  data: z.object({
    count: z.number(),
    total: z.number(),
    notGatherableCount: z.number(),
    notGatherableTotal: z.number(),
    /** The first of them (at most 50), oldest first. */
    notGatherable: z.array(notGatherable),
  }),
});
export type Gatherable = z.infer<typeof gatherableResponse>['data'];

export const gatherBody = z.object({ template: bankFileTemplate.optional() }).nullish();

export const batchResponse = z.object({ success: z.literal(true), message: z.string().optional(), data: bankBatch });

export const batchesQuery = z.object({ status: bankBatchStatus.optional(), ...paging.shape });
export type BatchesQuery = z.input<typeof batchesQuery>;
export const batchIdParams = z.object({
  id: z.coerce.number({ error: 'id must be a number' }).int('id must be a whole number').positive('id must be a positive number')
    .max(Number.MAX_SAFE_INTEGER, 'id is too large'),
});
export const linesQuery = z.object({ status: bankLineStatus.optional(), ...paging.shape });
export type LinesQuery = z.input<typeof linesQuery>;
export const fileQuery = z.object({ template: bankFileTemplate.optional() });

/** What one answer of the bank did (the per-line report of an import names the file's line). */
export const ANSWER_OUTCOMES = ['settled', 'returned', 'held', 'pending', 'duplicate', 'unknown', 'conflict', 'not_released', 'invalid', 'member_deleted'] as const;
export type AnswerOutcome = (typeof ANSWER_OUTCOMES)[number];

export const answerReport = z.object({
  /** The line of the file (1 is the first after the header); 0 for a webhook. */
  line: z.number(),
  reference: z.string(),
  outcome: z.enum(ANSWER_OUTCOMES),
  message: z.string(),
});

export const importSummary = z.object({
  answers: z.number(),
  settled: z.number(),
  returned: z.number(),
  /** The file's rejections: held for a second operator (one bank_returns request), the lines still in transit. */
  held: z.number(),
  heldAmount: z.number(),
  /** The request holding them, when any was held. */
  returnsApprovalId: z.number().nullable(),
  /** Answers that repeat what was already applied (the same file twice, a replayed webhook): nothing moved. */
  duplicates: z.number(),
  unknown: z.number(),
  /** No UTR and not rejected: the line stays in transit. */
  pending: z.number(),
  /** An answer that contradicts one already applied (settled, then rejected): not applied. */
  conflicts: z.number(),
  notReleased: z.number(),
  invalid: z.number(),
  /** Returns for a member deleted since: not credited, the line stays in transit to be handled by hand. */
  memberDeleted: z.number(),
  settledAmount: z.number(),
  returnedAmount: z.number(),
  /** The answers that did not settle or return a line, one per file line (at most 1,000). */
  problems: z.array(answerReport),
  problemsCapped: z.boolean(),
});
export type ImportSummary = z.infer<typeof importSummary>;

/** The largest response file: 1,000,000 lines of about 60 characters. */
export const RESPONSE_FILE_MAX_BYTES = 128 * 1024 * 1024;
export const importBody = z.object({ text: z.string().min(1, 'Choose the bank\u2019s response file') });
export const importResponse = z.object({ success: z.literal(true), message: z.string(), data: importSummary });

/** The provider's webhook: one answer, signed (header X-Bank-Signature: hex HMAC-SHA256 of the raw body). */
export const WEBHOOK_SIGNATURE_HEADER = 'x-bank-signature';
export const webhookBody = z.object({
  reference: z.string().min(1).max(64),
  status: z.string().max(32),
  utr: z.string().max(64).nullish(),
  reason: z.string().max(500).nullish(),
  /** The provider's event id (informational). */
  eventId: z.string().max(100).nullish(),
});
export type WebhookBody = z.infer<typeof webhookBody>;
export const webhookResponse = z.object({ success: z.literal(true), data: answerReport });

export const bankTransfersApi = endpoints('bank-transfers', {
  gatherable: {
    method: 'GET', path: '/bank-transfers/gatherable', access: 'bank_transfers', responses: { 200: gatherableResponse },
  },
  gather: {
    method: 'POST', path: '/bank-transfers/batches', access: 'bank_transfers', body: gatherBody, responses: { 201: batchResponse },
  },
  batches: {
    method: 'GET', path: '/bank-transfers/batches', access: 'bank_transfers', query: batchesQuery, responses: { 200: pageOf(bankBatch) },
  },
  batch: {
    method: 'GET', path: '/bank-transfers/batches/:id', access: 'bank_transfers', params: batchIdParams, responses: { 200: batchResponse },
  },
  lines: {
    method: 'GET', path: '/bank-transfers/batches/:id/lines', access: 'bank_transfers', params: batchIdParams, query: linesQuery,
    responses: { 200: pageOf(bankLine) },
  },
  /** Files the release for a second operator (money_approve, not the maker): always four eyes. */
  release: {
    method: 'POST', path: '/bank-transfers/batches/:id/release', access: 'bank_transfers', params: batchIdParams,
    responses: { 202: awaitingApprovalResponse },
  },
  /** A draft batch only: its lines are freed (marked cancelled) and the next gather takes them again. */
  cancel: {
    method: 'POST', path: '/bank-transfers/batches/:id/cancel', access: 'bank_transfers', params: batchIdParams, responses: { 200: batchResponse },
  },
  file: {
    method: 'GET', path: '/bank-transfers/batches/:id/file', access: 'bank_transfers', params: batchIdParams, query: fileQuery,
    file: 'csv', responses: {},
  },
  importResponse: {
    method: 'POST', path: '/bank-transfers/responses', access: 'bank_transfers', multipart: 'optional', bodyLimit: RESPONSE_FILE_MAX_BYTES,
    body: importBody.nullish(), responses: { 200: importResponse },
  },
  inTransit: {
    method: 'GET', path: '/bank-transfers/in-transit', access: 'bank_transfers', query: paging, responses: { 200: pageOf(transitLine) },
  },
  /** A member's transfers to the bank (the member page: where their withdrawn money is). */
  memberLines: {
    method: 'GET', path: '/bank-transfers/members/:userId/lines', access: 'wallet_view', params: userIdParams, query: paging,
    responses: { 200: memberLinesResponse },
  },
  /** The lines a bank_batch_release request sends: where its checker is asked to send the money. */
  releaseLines: {
    method: 'GET', path: '/bank-transfers/releases/:id/lines', access: 'money_approve', params: batchIdParams, query: paging,
    responses: { 200: pageOf(bankLine) },
  },
  /** The lines a bank_returns request holds: what its checker is asked to credit back. */
  returnLines: {
    method: 'GET', path: '/bank-transfers/returns/:id/lines', access: 'money_approve', params: batchIdParams, query: paging,
    responses: { 200: pageOf(bankLine) },
  },
  webhook: {
    method: 'POST', path: '/bank-transfers/webhook', access: 'public', body: webhookBody, responses: { 200: webhookResponse },
    summary: 'The payout provider\u2019s answer for one transfer, signed with HMAC-SHA256 of the raw body (X-Bank-Signature)',
  },
});
