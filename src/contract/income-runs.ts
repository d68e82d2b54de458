import { z } from 'zod';
import { awaitingApprovalResponse } from './approvals.ts';
import { pageOf, paging, sortParam, wireDate } from './common.ts';
import { endpoints } from './endpoint.ts';
import { memberIdParams } from './income.ts';
import { plainText } from './reports.ts';

/**
 * The income engine's runs (issue 16): daily payout, royalty, referral bonus, monthly reward and
 * rank promotion, each run once per period over every member, previewed, watched, reversed.
 * Amounts are rupees on the wire, paise in storage; days are dd-mm-yyyy on the wire.
 */

export const RUN_KINDS = [
  { value: 'daily_payout', label: 'Daily payout' },
  { value: 'royalty', label: 'Royalty' },
  { value: 'referral_bonus', label: 'Referral bonus (10 active referrals)' },
  { value: 'monthly_reward', label: 'Monthly reward' },
  { value: 'rank_promotion', label: 'Rank promotion' },
] as const;
export type RunKind = (typeof RUN_KINDS)[number]['value'];
export const runKind = z.enum(RUN_KINDS.map((k) => k.value) as [RunKind, ...RunKind[]], {
  error: `Kind must be one of ${RUN_KINDS.map((k) => k.value).join(', ')}`,
});

export const RUN_STATUSES = ['running', 'completed', 'failed', 'reversing', 'reversed'] as const;
export const runStatus = z.enum(RUN_STATUSES, { error: `Status must be one of ${RUN_STATUSES.join(', ')}` });
export type RunStatus = z.infer<typeof runStatus>;

/** Counts and totals of a run, or of a preview. Amounts in rupees. */
export const runTotals = z.object({
  /** Units the run goes through (memberships, members) and those done so far. */
  total: z.number(),
  done: z.number(),
  paid: z.number(),
  failed: z.number(),
  /** What the members earned before deductions. */
  gross: z.number(),
  /** TDS + admin charge (issue 24: also apart). */
  deductions: z.number(),
  tds: z.number(),
  adminCharge: z.number(),
  /** What the members received: gross − deductions. */
  net: z.number(),
  failedAmount: z.number(),
});
export type RunTotals = z.infer<typeof runTotals>;

export const run = z.object({
  runId: z.number(),
  kind: runKind,
  periodStart: z.string(), // dd-mm-yyyy
  periodEnd: z.string(),
  status: runStatus,
  totals: runTotals,
  startedBy: z.number().nullable(),
  startedByName: z.string().nullable(), // null: the schedule
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  reversedBy: z.number().nullable(),
  /** Issue 24: names, never ids, for every actor. */
  reversedByName: z.string().nullable(),
  reversedAt: z.string().nullable(),
  shortfall: z.number(),
  error: z.string().nullable(),
  batchId: z.number().nullable(),
});
export type Run = z.infer<typeof run>;

/** One run with what it used: the settings version, the plans' terms and rank weights, its state. */
export const runDetail = run.extend({
  settingsVersionId: z.number().nullable(),
  settings: z.record(z.string(), z.unknown()),
  state: z.record(z.string(), z.unknown()),
  /** What the reversal could not take back, per member, and how much of it their later credits have recovered (issue 22). */
  shortfalls: z.array(z.object({ userId: z.number(), userName: z.string(), amount: z.number(), recovered: z.number() })),
  /** The reversal, as labelled fields (issue 24), or null when the run was never reversed. */
  reversal: z.object({
    remarks: z.string(),
    lines: z.number(),
    members: z.number(),
    shortfall: z.number(),
    /** The operator who asked for it; when a second operator approved it, `reversedByName` is the approver. */
    requestedByName: z.string().nullable(),
    approved: z.boolean(),
  }).nullable(),
});
export type RunDetail = z.infer<typeof runDetail>;

/**
 * What a member owes (issue 22): the shortfalls of reversed runs not yet recovered from their
 * credits, oldest first (the order their credits settle them in); `owed` is their sum, rupees.
 */
export const memberRecovery = z.object({
  userId: z.number(),
  owed: z.number(),
  shortfalls: z.array(z.object({
    runId: z.number(),
    kind: runKind,
    periodStart: z.string(), // dd-mm-yyyy
    amount: z.number(),
    recovered: z.number(),
  })),
});
export type MemberRecovery = z.infer<typeof memberRecovery>;

/** One member's line of a run (issue 24): what they earned, what was taken, what they received. */
export const RUN_LINE_STATUSES = ['Success', 'Failure', 'Reversed', 'Paid'] as const;
export const runLine = z.object({
  userId: z.number(),
  userName: z.string(),
  /** Success / Failure / Reversed (daily payout), Paid / Reversed (other kinds). */
  status: z.enum(RUN_LINE_STATUSES),
  gross: z.number(),
  tds: z.number(),
  adminCharge: z.number(),
  net: z.number(),
  /** Why a Failure row could not be paid. */
  reason: z.string().nullable(),
  /** Who paid a Failure row later with Pay Now, by name. */
  paidNowByName: z.string().nullable(),
  /** Daily payout: what it was before it was reversed. */
  reversedStatus: z.string().nullable(),
});
export type RunLine = z.infer<typeof runLine>;
export const runLinesQuery = paging;

/**
 * What reversing a run will do (issue 24), computed by the same statement the reversal runs
 * (reversal.repository.ts `reversalRows`), so the dialog and the reversal cannot disagree.
 */
export const reversalPreview = z.object({
  runId: z.number(),
  /** Members whose wallet the reversal moves, and the compensating lines it writes. */
  members: z.number(),
  lines: z.number(),
  /** What the run credited (gross, Pay Now included), its deductions, and the net. */
  gross: z.number(),
  deductions: z.number(),
  net: z.number(),
  /** What is taken back from wallets now, and what the members no longer have (a recovery they owe). */
  takenBack: z.number(),
  shortfall: z.number(),
  shortfallMembers: z.number(),
  /** Lines written later by Pay Now on the run's Failure rows: reversed with it. */
  payNowLines: z.number(),
  payNowMembers: z.number(),
  /** Failure rows never paid: they are marked Reversed too. */
  unpaidFailures: z.number(),
  /**
   * A bank-mode run (issue 25): what it sent on to the bank that no bank batch holds yet (reversed:
   * it stays in the wallets, which give it back), and what batches already hold (not reversed: the
   * wallets give back what they can, the rest is a shortfall).
   */
  bankUnsent: z.number(),
  bankSent: z.number(),
});
export type ReversalPreview = z.infer<typeof reversalPreview>;

export const RUN_SORTS = ['startedAt', 'periodStart'] as const;
export const runsQuery = z.object({
  kind: runKind.optional(),
  status: runStatus.optional(),
  ...paging.shape,
  sort: sortParam(RUN_SORTS, '-startedAt'),
});
export type RunsQuery = z.input<typeof runsQuery>;

/** Start or preview: any day of the period (dd-mm-yyyy); the kind's period around it is run. */
export const runBody = z.object({ kind: runKind, date: wireDate });
export type RunBody = z.input<typeof runBody>;

export const runIdParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
export const reverseBody = z.object({ remarks: plainText(500).pipe(z.string().min(1, 'Please give the reason for reversing this run')) });

export const runPreviewResponse = z.object({
  success: z.literal(true),
  data: z.object({
    kind: runKind, periodStart: z.string(), periodEnd: z.string(), totals: runTotals, existingRunId: z.number().nullable(),
    /** Issue 24: when the preview pays nothing, why (not a business day, no active memberships, all capped, …). */
    nothingBecause: z.string().nullable().optional(),
  }),
});

export const runsApi = endpoints('income-runs', {
  list: { method: 'GET', path: '/income/runs', access: 'payouts_view', query: runsQuery, responses: { 200: pageOf(run) } },
  get: {
    method: 'GET', path: '/income/runs/:id', access: 'payouts_view', params: runIdParams,
    responses: { 200: z.object({ success: z.literal(true), data: runDetail }) },
  },
  /** The runs list as CSV (issue 24), with the list's filters. */
  csv: {
    method: 'GET', path: '/income/runs.csv', access: 'payouts_view', query: runsQuery.omit({ page: true, limit: true, sort: true }), file: 'csv', responses: {},
  },
  /** A run's lines per member, by member id (issue 24). */
  lines: {
    method: 'GET', path: '/income/runs/:id/lines', access: 'payouts_view', params: runIdParams, query: runLinesQuery,
    responses: { 200: pageOf(runLine) },
  },
  linesCsv: {
    method: 'GET', path: '/income/runs/:id/lines.csv', access: 'payouts_view', params: runIdParams, file: 'csv', responses: {},
  },
  /** What the reversal would do now (issue 24): the dialog shows it before it is confirmed. */
  reversalPreview: {
    method: 'GET', path: '/income/runs/:id/reversal-preview', access: 'income_runs', params: runIdParams,
    responses: { 200: z.object({ success: z.literal(true), data: reversalPreview }) },
  },
  preview: { method: 'POST', path: '/income/runs/preview', access: 'income_runs', body: runBody, responses: { 200: runPreviewResponse } },
  /** 201 a new run (it goes on in the background; poll `get`), 200 the period's existing run. */
  start: {
    method: 'POST', path: '/income/runs', access: 'income_runs', body: runBody,
    responses: {
      201: z.object({ success: z.literal(true), message: z.string(), data: run }),
      200: z.object({ success: z.literal(true), message: z.string(), data: run }),
      /** A reversed period run again: filed for a second operator (issue 22). */
      202: awaitingApprovalResponse,
    },
  },
  /** A member's recovery owed and the shortfalls it comes from (the member page). */
  recovery: {
    method: 'GET', path: '/income/recoveries/:userId', access: 'payouts_view', params: memberIdParams,
    responses: { 200: z.object({ success: z.literal(true), data: memberRecovery }) },
  },
  /** Four eyes: above the approval threshold the reversal waits for a second operator (202). */
  reverse: {
    method: 'POST', path: '/income/runs/:id/reverse', access: 'income_runs', params: runIdParams, body: reverseBody,
    responses: { 200: z.object({ success: z.literal(true), message: z.string(), data: run }), 202: awaitingApprovalResponse },
  },
});

