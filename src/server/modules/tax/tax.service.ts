import { isoToWireDate, paiseToRupees } from '../../../contract/common.ts';
import {
  maskPan, quarterDays, quarterLabel, type MonthlyStatement, type TdsMemberRow, type TdsReport, type TdsSection,
} from '../../../contract/tax.ts';
import type { Ctx } from '../../lib/context.ts';
import * as repo from './tax.repository.ts';

/** The TDS report (issue 25, docs/tax.md): one page of members with their quarter's totals, and the quarter's. */
export async function tdsReport(ctx: Ctx, q: { year: number; quarter: number; page: number; limit: number }): Promise<Omit<TdsReport, 'success'>> {
  const { db } = ctx.database;
  const { from, to } = quarterDays(q.year, q.quarter);
  const key = repo.quarterKey(q.year, q.quarter);
  const ids = await repo.membersPage(db, key, q.page, q.limit);
  const rows = await repo.dayRowsOf(db, ids, from, to);
  const byMember = new Map<number, repo.TdsDayRow[]>();
  for (const r of rows) byMember.set(r.userId, [...(byMember.get(r.userId) ?? []), r]);
  const data: TdsMemberRow[] = ids.flatMap((userId) => {
    const days = byMember.get(userId);
    if (!days || days.length === 0) return [];
    const sections = [...new Set(days.map((d) => d.section))].sort() as TdsSection[];
    return [{
      userId,
      name: days[0].name,
      pan: maskPan(days[0].pan),
      gross: paiseToRupees(days.reduce((s, d) => s + d.grossPaise, 0)),
      tds: paiseToRupees(days.reduce((s, d) => s + d.tdsPaise, 0)),
      days: new Set(days.map((d) => d.day)).size,
      firstDate: isoToWireDate(days[0].day),
      lastDate: isoToWireDate(days[days.length - 1].day),
      sections,
    }];
  });
  const totals = await repo.quarterTotals(db, key);
  return {
    data, total: totals.members, page: q.page, limit: q.limit,
    summary: {
      label: quarterLabel(q.year, q.quarter), from: isoToWireDate(from), to: isoToWireDate(to), members: totals.members,
      gross: paiseToRupees(totals.grossPaise), tds: paiseToRupees(totals.tdsPaise), tdsWithoutPan: paiseToRupees(totals.tdsWithoutPanPaise),
    },
  };
}

/**
 * The CSV for preparing the quarterly return (Form 26Q): one line per member, day and run with a
 * deduction, the PAN whole ('PANNOTAVBL' without one, as the return writes it).
 */
export const TDS_CSV_HEADER = [
  'User ID', 'Name', 'PAN', 'Date of payment', 'Amount paid (gross)', 'TDS deducted', 'Rate (%)', 'Section', 'Higher rate (no PAN)', 'Run',
];

export async function tdsCsvBatch(ctx: Ctx, q: { year: number; quarter: number }, afterUserId: number, limit: number) {
  const { from, to } = quarterDays(q.year, q.quarter);
  const { rows, last } = await repo.dayRowsBatch(ctx.database.db, repo.quarterKey(q.year, q.quarter), afterUserId, limit, from, to);
  return {
    rows: rows.map((r) => [
      r.userId, r.name, r.pan ?? 'PANNOTAVBL', isoToWireDate(r.day), paiseToRupees(r.grossPaise).toFixed(2), paiseToRupees(r.tdsPaise).toFixed(2),
      r.grossPaise > 0 ? ((r.tdsPaise * 100) / r.grossPaise).toFixed(2) : '', r.section, r.section === '206AA' ? 'Yes' : 'No', r.runId,
    ]),
    cursor: last,
  };
}

export const tdsCsvName = (q: { year: number; quarter: number }) => `tds-fy${q.year}-${String((q.year + 1) % 100).padStart(2, '0')}-q${q.quarter}.csv`;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** yyyy-mm → its first and last day. */
function monthDays(month: string) {
  const [y, m] = month.split('-').map(Number);
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}`, label: `${MONTHS[m - 1]} ${y}` };
}

/**
 * The monthly statement (issue 25): each income and expense account's movement in the month from
 * the books (book_daily), as an accountant reads it: income earned and expense spent as positive
 * amounts (the books are credit-positive, so an expense's movement is negated), and the net.
 */
export async function monthlyStatement(ctx: Ctx, month: string): Promise<MonthlyStatement> {
  const { from, to, label } = monthDays(month);
  const accounts = await repo.accountMovements(ctx.database.db, from, to);
  const rows = accounts.map((a) => ({
    code: a.code, name: a.name, type: a.type, legs: a.legs,
    amount: paiseToRupees(a.type === 'income' ? a.movementPaise : -a.movementPaise),
  }));
  const income = accounts.filter((a) => a.type === 'income').reduce((s, a) => s + a.movementPaise, 0);
  const expenses = accounts.filter((a) => a.type === 'expense').reduce((s, a) => s - a.movementPaise, 0);
  return {
    month, label, from: isoToWireDate(from), to: isoToWireDate(to), rows,
    income: paiseToRupees(income), expenses: paiseToRupees(expenses), net: paiseToRupees(income - expenses),
  };
}
