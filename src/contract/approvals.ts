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
  { value: 'bank_account_change', label: 'Bank account number change' },
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

export const approvalsApi = endpoints('approvals', {
  list: { method: 'GET', path: '/approvals', access: 'money_approve', query: approvalsQuery, responses: { 200: approvalsResponse } },
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
