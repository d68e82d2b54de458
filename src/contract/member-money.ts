import { z } from 'zod';
import { pageOf, paging, wireDate } from './common.ts';
import { ledgerKind } from './ledger-kinds.ts';

/**
 * Issue 24: a member's money on the member page: the balance, what each kind of income brought to
 * date, the membership and the member's ledger. The endpoints are the wallet's (walletApi).
 */

/** What one kind of income brought the member to date (rupees). net = gross − deductions − reversed. */
export const earnedKind = z.object({
  /** The original credits (for the daily payout: before TDS and admin charge). */
  gross: z.number(),
  /** TDS and admin charge taken from the daily payout (0 for the other kinds), as originally taken. */
  deductions: z.number(),
  /** What reversals of runs took back, net (a reversed deduction is given back, so it lowers this). */
  reversed: z.number(),
  /** What the member kept: gross − deductions − reversed. */
  net: z.number(),
});
export type EarnedKind = z.infer<typeof earnedKind>;

export const memberMoney = z.object({
  userId: z.number(),
  fullName: z.string(),
  /** The wallet balance now. */
  balance: z.number(),
  /** What reversals could not take back and the member's next credits will settle. */
  recoveryOwed: z.number(),
  /** What recoveries have already taken from later credits. */
  recovered: z.number(),
  earned: z.object({
    levelIncome: earnedKind,
    dailyPayout: earnedKind.extend({ tds: z.number(), adminCharge: z.number() }),
    royalty: earnedKind,
    /** Rewards and referral bonuses. */
    rewards: earnedKind,
    /** The four kinds' net added up. */
    totalNet: z.number(),
  }),
  membership: z.object({
    planName: z.string().nullable(),
    /** active, completed or legacy (before the income engine). */
    status: z.enum(['active', 'completed', 'legacy']),
    amount: z.number(),
    activatedAt: z.string(),
    startsOn: z.string().nullable(),
    durationDays: z.number(),
    daysEarned: z.number(),
    earned: z.number(),
    cap: z.number(),
  }).nullable(),
});
export type MemberMoney = z.infer<typeof memberMoney>;

/** The member's ledger filters: a kind and a date range (business days in Asia/Kolkata, dd-mm-yyyy). */
const memberLedgerFilterShape = { kind: ledgerKind.optional(), fromDate: wireDate.optional(), toDate: wireDate.optional() };
const fromNotAfterTo = { message: 'fromDate must not be after toDate', path: ['fromDate'] };
export const memberLedgerQuery = z.object({ ...memberLedgerFilterShape, ...paging.shape })
  .refine((q) => !q.fromDate || !q.toDate || q.fromDate <= q.toDate, fromNotAfterTo);
export const memberLedgerCsvQuery = z.object(memberLedgerFilterShape)
  .refine((q) => !q.fromDate || !q.toDate || q.fromDate <= q.toDate, fromNotAfterTo);
export type MemberLedgerFilters = z.infer<typeof memberLedgerCsvQuery>;

/** One ledger line of a member, with who or what was on the other side of it. */
export const memberLedgerLine = z.object({
  id: z.number(),
  dateTime: z.string(),
  kind: z.string(),
  /** The kind in words. */
  kindLabel: z.string(),
  type: z.enum(['credit', 'debit']),
  /** Without its sign: `type` says which way it went. */
  amount: z.number(),
  /** The wallet balance right after this line. */
  balanceAfter: z.number(),
  description: z.string().nullable(),
  /** The other side in words: the run (kind and period), the operator, the approval request, the reversed line. */
  counterparty: z.string(),
  run: z.object({ runId: z.number(), kind: z.string(), periodStart: z.string(), periodEnd: z.string() }).nullable(),
  operator: z.object({ userId: z.number(), name: z.string() }).nullable(),
  approval: z.object({ id: z.number(), makerName: z.string().nullable(), checkerName: z.string().nullable() }).nullable(),
  /** A reversal's line names the line it compensates. */
  reversalOf: z.number().nullable(),
});
export type MemberLedgerLine = z.infer<typeof memberLedgerLine>;
export const memberLedgerResponse = pageOf(memberLedgerLine);
export type MemberLedgerPage = z.infer<typeof memberLedgerResponse>;
