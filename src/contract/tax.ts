import { z } from 'zod';
import { awaitingApprovalResponse } from './approvals.ts';
import { paging } from './common.ts';
import { endpoints } from './endpoint.ts';

/**
 * Tax on what is paid (issue 25, docs/tax.md): a member's PAN, the TDS report per quarter for the
 * quarterly TDS return (Form 26Q), and the monthly statement of revenue, admin charges and expenses
 * from the books.
 */

// ---- PAN ----

/** A PAN: five letters, four digits, one letter (AAAAA9999A); the database checks it too (users_pan_format). */
export const PAN_PATTERN = /^[A-Z]{5}[0-9]{4}[A-Z]$/;
export const PAN_MESSAGE = 'PAN must be 5 letters, 4 digits and a letter, like ABCDE1234F';

export const pan = z.string({ error: 'PAN is required' }).trim().toUpperCase().regex(PAN_PATTERN, PAN_MESSAGE);

/**
 * A PAN as the panel, the answers and the audit log show it: the first five and the last character,
 * the four digits hidden ('ABCDE****F'). Only the TDS report's CSV, made for the return, has it whole.
 */
export const maskPan = (value: string | null): string | null =>
  value === null ? null : value.length === 10 ? `${value.slice(0, 5)}****${value.slice(9)}` : '**********';

export const panUserParams = z.object({
  userId: z.coerce.number({ error: 'userId must be a number' }).int().positive().max(Number.MAX_SAFE_INTEGER),
});

export const panBody = z.object({ pan });
export type PanBody = z.input<typeof panBody>;

/** What the checker replays: the member, the new PAN, and the PAN it had when filed (applied only if unchanged). */
export const panChangeRequest = z.object({
  userId: z.number().int().positive(),
  pan,
  before: z.string().nullable(),
});
export type PanChangeRequest = z.infer<typeof panChangeRequest>;

export const memberPan = z.object({
  userId: z.number(),
  /** Masked; null when the member has given none (TDS at the no-PAN rate). */
  pan: z.string().nullable(),
  /** A change waiting for a second operator, its new PAN masked. */
  pending: z.object({ approvalId: z.number(), pan: z.string() }).nullable(),
});
export type MemberPan = z.infer<typeof memberPan>;

export const memberPanResponse = z.object({ success: z.literal(true), data: memberPan });

// ---- TDS report ----

/**
 * A quarter of the Indian financial year: `year` is the year it starts in April (2026 = FY
 * 2026-27), quarter 1 Apr–Jun, 2 Jul–Sep, 3 Oct–Dec, 4 Jan–Mar of the next calendar year.
 */
export const QUARTERS = [
  { value: 1, label: 'Q1 (Apr–Jun)' },
  { value: 2, label: 'Q2 (Jul–Sep)' },
  { value: 3, label: 'Q3 (Oct–Dec)' },
  { value: 4, label: 'Q4 (Jan–Mar)' },
] as const;

export const quarterQuery = z.object({
  year: z.coerce.number({ error: 'year must be a number' }).int('year must be a whole number')
    .min(2000, 'year must be between 2000 and 2100').max(2100, 'year must be between 2000 and 2100'),
  quarter: z.coerce.number({ error: 'quarter must be 1, 2, 3 or 4' }).int('quarter must be 1, 2, 3 or 4')
    .min(1, 'quarter must be 1, 2, 3 or 4').max(4, 'quarter must be 1, 2, 3 or 4'),
});
export type QuarterQuery = z.input<typeof quarterQuery>;

/** The first and last day (yyyy-mm-dd) of a financial-year quarter. */
export function quarterDays(year: number, quarter: number): { from: string; to: string } {
  const startMonth = [4, 7, 10, 1][quarter - 1];
  const y = quarter === 4 ? year + 1 : year;
  const endMonth = startMonth + 2;
  const lastDay = new Date(Date.UTC(y, endMonth, 0)).getUTCDate();
  const mm = (m: number) => String(m).padStart(2, '0');
  return { from: `${y}-${mm(startMonth)}-01`, to: `${y}-${mm(endMonth)}-${lastDay}` };
}

/** 'Q1 (Apr–Jun) FY 2026-27'. */
export const quarterLabel = (year: number, quarter: number) =>
  `${QUARTERS[quarter - 1].label} FY ${year}-${String((year + 1) % 100).padStart(2, '0')}`;

/** The sections: 194H (commission, with a PAN) and 206AA (the higher rate without one). */
export const TDS_SECTIONS = ['194H', '206AA'] as const;
export type TdsSection = (typeof TDS_SECTIONS)[number];

export const tdsQuery = quarterQuery.extend(paging.shape);
export type TdsQuery = z.input<typeof tdsQuery>;

/** One member's quarter: what was paid (gross), the TDS deducted, and the sections it was deducted under. */
export const tdsMemberRow = z.object({
  userId: z.number(),
  name: z.string(),
  /** Masked; null without a PAN. */
  pan: z.string().nullable(),
  /** Rupees. */
  gross: z.number(),
  tds: z.number(),
  /** Days with a deduction in the quarter. */
  days: z.number(),
  firstDate: z.string(),
  lastDate: z.string(),
  sections: z.array(z.enum(TDS_SECTIONS)),
});
export type TdsMemberRow = z.infer<typeof tdsMemberRow>;

export const tdsReportResponse = z.object({
  success: z.literal(true),
  data: z.array(tdsMemberRow),
  total: z.number(),
  page: z.number(),
  limit: z.number(),
  summary: z.object({
    label: z.string(),
    /** dd-mm-yyyy. */
    from: z.string(),
    to: z.string(),
    members: z.number(),
    gross: z.number(),
    tds: z.number(),
    /** TDS deducted at the no-PAN rate (section 206AA). */
    tdsWithoutPan: z.number(),
  }),
});
export type TdsReport = z.infer<typeof tdsReportResponse>;

// ---- Monthly statement ----

export const monthQuery = z.object({
  month: z.string({ error: 'month is required (yyyy-mm)' }).regex(/^(20\d\d|2100)-(0[1-9]|1[0-2])$/, 'month must be yyyy-mm, like 2026-04'),
});
export type MonthQuery = z.input<typeof monthQuery>;

export const statementRow = z.object({
  code: z.string(),
  name: z.string(),
  type: z.enum(['income', 'expense']),
  /**
   * Rupees, as an accountant reads it: income earned, expense spent (both positive for the usual
   * direction; a negative figure is a month whose corrections were larger).
   */
  amount: z.number(),
  /** Legs posted to the account in the month. */
  legs: z.number(),
});
export type StatementRow = z.infer<typeof statementRow>;

export const monthlyStatementResponse = z.object({
  success: z.literal(true),
  data: z.object({
    month: z.string(),
    label: z.string(),
    from: z.string(),
    to: z.string(),
    rows: z.array(statementRow),
    income: z.number(),
    expenses: z.number(),
    /** Income less expenses (negative: the month cost more than it earned). */
    net: z.number(),
  }),
});
export type MonthlyStatement = z.infer<typeof monthlyStatementResponse>['data'];

export const taxApi = endpoints('tax', {
  pan: { method: 'GET', path: '/tax/pan/:userId', access: 'users_view', params: panUserParams, responses: { 200: memberPanResponse } },
  /** Always filed for a second operator with money_approve (202): a PAN decides the tax a member pays. */
  setPan: {
    method: 'PUT', path: '/tax/pan/:userId', access: 'users_edit', params: panUserParams, body: panBody,
    responses: { 202: awaitingApprovalResponse },
  },
  tds: { method: 'GET', path: '/tax/tds', access: 'reports_view', query: tdsQuery, responses: { 200: tdsReportResponse } },
  /** One line per member, day and run with a deduction, PAN whole (for the return), streamed. */
  tdsCsv: { method: 'GET', path: '/tax/tds.csv', access: 'reports_view', query: quarterQuery, file: 'csv', responses: {} },
  monthly: { method: 'GET', path: '/tax/monthly-statement', access: 'reports_view', query: monthQuery, responses: { 200: monthlyStatementResponse } },
  monthlyCsv: { method: 'GET', path: '/tax/monthly-statement.csv', access: 'reports_view', query: monthQuery, file: 'csv', responses: {} },
});
