import { z } from 'zod';
import { paging, pageOf, sortParam } from './common.ts';
import { endpoints } from './endpoint.ts';
import { plainText } from './reports.ts';

/**
 * Four eyes on money: what kind of movement waits for a second operator, and how the Approvals
 * screen names it.
 */
export const APPROVAL_KINDS = [
  { value: 'wallet_recharge', label: 'Wallet recharge' },
  { value: 'wallet_withdrawal', label: 'Wallet withdrawal' },
  { value: 'admin_transfer', label: 'Transfer to wallet' },
  { value: 'pay_payout', label: 'Daily payout payment (Pay Now)' },
  { value: 'pay_payout_bulk', label: 'Daily payout payments in bulk (Pay Now)' },
  { value: 'withdrawal_approval', label: 'Withdrawal request approval' },
  { value: 'membership_activation', label: 'Membership paid outside the wallet' },
  { value: 'run_reversal', label: 'Reversal of an income run' },
  // Levers that make money at scale (issue 22): compensation changes, re-runs, bank account numbers.
  { value: 'plan_create', label: 'New membership plan' },
  { value: 'plan_change', label: 'Membership plan change' },
  { value: 'settings_change', label: 'Income settings change' },
  { value: 'run_rerun', label: 'Re-run of a reversed period' },
  { value: 'bank_account_change', label: 'Bank account change' },
  // Issue 25: a batch of transfers to members' banks, released by a second operator.
  { value: 'bank_batch_release', label: 'Release of a bank transfer batch' },
  // A file's rejections credit members' wallets back: a false rejection would pay a member twice.
  { value: 'bank_returns', label: 'Returns from the bank' },
  // Issue 25: a PAN decides the rate of TDS a member pays (docs/tax.md).
  { value: 'pan_change', label: 'PAN change' },
] as const;
export type ApprovalKind = (typeof APPROVAL_KINDS)[number]['value'];
export const approvalKind = z.enum(APPROVAL_KINDS.map((k) => k.value) as [ApprovalKind, ...ApprovalKind[]]);

/**
 * 'expired': it can no longer be approved (issue 22): its maker or its member was deactivated, or
 * the day a compensation change or re-run was for has passed.
 */
export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected', 'expired'] as const;
export const approvalStatus = z.enum(APPROVAL_STATUSES, { error: 'status must be pending, approved, rejected or expired' });
export type ApprovalStatus = z.infer<typeof approvalStatus>;

/** The 202 answer of a money endpoint when the amount is above the approval threshold. */
export const awaitingApprovalResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ approvalId: z.number(), status: z.literal('pending') }),
});
export type AwaitingApproval = z.infer<typeof awaitingApprovalResponse>;

/** The queue's sorts (`sort=-amount`); with a status, each walks an index of (status, column, id). */
export const APPROVAL_SORTS = ['createdAt', 'amount', 'kind'] as const;

export const approvalsQuery = z.object({ status: approvalStatus.optional(), ...paging.shape, sort: sortParam(APPROVAL_SORTS, '-createdAt') });
export type ApprovalsQuery = z.input<typeof approvalsQuery>;

export const approvalIdParams = z.object({
  id: z.coerce.number({ error: 'id must be a number' }).int('id must be a whole number').positive('id must be a positive number')
    .max(Number.MAX_SAFE_INTEGER, 'id is too large'),
});

/** Remarks are optional, and so is the body itself: `POST …/approve` with nothing approves. */
export const approveBody = z.object({ remarks: plainText(500).optional() }).nullish();
export const rejectBody = z.object({
  remarks: plainText(500).pipe(z.string().min(1, 'Please give the reason for rejecting this request')),
});

/** One request in the queue: who asked, for whom, how much, and who decided. */
export const approval = z.object({
  id: z.number(),
  kind: approvalKind,
  /** The member whose money moves; null for a change that names no member (a plan, the settings). */
  userId: z.number().nullable(),
  userName: z.string().nullable(),
  amount: z.number(),
  status: approvalStatus,
  makerId: z.number(),
  makerName: z.string(),
  checkerId: z.number().nullable(),
  checkerName: z.string().nullable(),
  remarks: z.string().nullable(),
  /** The payout (Pay Now) or withdrawal request it pays or approves, when there is one. */
  payoutId: z.number().nullable(),
  withdrawalId: z.number().nullable(),
  /**
   * What the checker is shown beside the amount, when the request carries it: a compensation
   * change's before and after and its projected cost, an activation's payment, a re-run's preview,
   * a bank account change's whole old and new numbers.
   */
  details: z.record(z.string(), z.unknown()).nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type Approval = z.infer<typeof approval>;

export const approvalsResponse = pageOf(approval);
export type ApprovalsPage = z.infer<typeof approvalsResponse>;

export const approvalResponse = z.object({ success: z.literal(true), data: approval });

/** A decision: the request as it now stands and, when approved, what the movement answered. */
export const approvalDecisionResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  data: approval.extend({ result: z.record(z.string(), z.unknown()).nullable() }),
});

/** "My requests" (issue 24): the caller's own requests, newest first, any status or one. */
export const myRequestsQuery = z.object({ status: approvalStatus.optional(), ...paging.shape });
export type MyRequestsQuery = z.input<typeof myRequestsQuery>;

/** How many requests wait for the caller's decision (not their own, not of their own wallet). */
export const pendingCountResponse = z.object({ success: z.literal(true), data: z.object({ count: z.number().int() }) });

/** The most requests one bulk call decides, and the most ids "every pending request" returns. */
export const BULK_MAX = 500;
export const BULK_IDS_CAP = 10_000;

const bulkIds = z
  .array(approvalIdParams.shape.id, { error: 'ids must be a list of request ids' })
  .min(1, 'Choose at least one request')
  .max(BULK_MAX, `At most ${BULK_MAX} requests at a time`)
  .transform((ids) => [...new Set(ids)]);

/** Approve or reject many requests; each is decided on its own, by the same rules as one. */
export const bulkDecisionBody = z.discriminatedUnion('action', [
  z.object({ action: z.literal('approve'), ids: bulkIds, remarks: plainText(500).optional() }),
  z.object({
    action: z.literal('reject'),
    ids: bulkIds,
    remarks: plainText(500).pipe(z.string().min(1, 'Please give the reason for rejecting these requests')),
  }),
], { error: 'action must be approve or reject' });
export type BulkDecisionBody = z.input<typeof bulkDecisionBody>;
export type BulkDecision = z.output<typeof bulkDecisionBody>;

export const bulkDecisionResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({
    done: z.array(z.object({ id: z.number(), note: z.string().optional() })),
    failed: z.array(z.object({ id: z.number(), message: z.string() })),
  }),
});
export type BulkDecisionResult = z.infer<typeof bulkDecisionResponse>['data'];

/** The ids of every request of a status (for "select all matching"), oldest first, capped. */
export const approvalIdsResponse = z.object({
  success: z.literal(true),
  data: z.array(z.number()),
  total: z.number(),
  capped: z.boolean(),
});

/** The queue's CSV: every request of the status (or all), newest first. */
export const approvalsCsvQuery = z.object({ status: approvalStatus.optional() });

export const approvalsApi = endpoints('approvals', {
  list: { method: 'GET', path: '/approvals', access: 'money_approve', query: approvalsQuery, responses: { 200: approvalsResponse } },
  // Declared before '/approvals/:id' so the fixed paths are never read as an id.
  mine: { method: 'GET', path: '/approvals/mine', access: 'session', query: myRequestsQuery, responses: { 200: approvalsResponse } },
  /** "My requests" as CSV: the caller's own requests of the status (or all), newest first. */
  mineCsv: { method: 'GET', path: '/approvals/mine.csv', access: 'session', query: approvalsCsvQuery, file: 'csv', responses: {} },
  pendingCount: { method: 'GET', path: '/approvals/pending-count', access: 'money_approve', responses: { 200: pendingCountResponse } },
  ids: { method: 'GET', path: '/approvals/ids', access: 'money_approve', query: approvalsCsvQuery, responses: { 200: approvalIdsResponse } },
  csv: { method: 'GET', path: '/approvals.csv', access: 'money_approve', query: approvalsCsvQuery, file: 'csv', responses: {} },
  bulk: { method: 'POST', path: '/approvals/bulk', access: 'money_approve', body: bulkDecisionBody, responses: { 200: bulkDecisionResponse } },
  get: { method: 'GET', path: '/approvals/:id', access: 'money_approve', params: approvalIdParams, responses: { 200: approvalResponse } },
  approve: {
    method: 'POST', path: '/approvals/:id/approve', access: 'money_approve', params: approvalIdParams, body: approveBody,
    responses: { 200: approvalDecisionResponse },
  },
  reject: {
    method: 'POST', path: '/approvals/:id/reject', access: 'money_approve', params: approvalIdParams, body: rejectBody,
    responses: { 200: approvalDecisionResponse },
  },
});
