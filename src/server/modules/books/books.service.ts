import {
  type AccountStatement, type BookAccountCode, type BookAccountType, type StatementLeg, type TransferCause,
  type TransferDetail, type TrialBalance,
} from '../../../contract/books.ts';
import { paiseToRupees } from '../../../contract/common.ts';
import { ledgerKindLabel } from '../../../contract/ledger-kinds.ts';
import type { Ctx } from '../../lib/context.ts';
import { AppError } from '../../lib/errors.ts';
import * as repo from './books.repository.ts';

const rupees = (paise: number) => paiseToRupees(paise);

/** A credit-positive balance as a trial balance shows it: a debit (negative) or a credit (positive). */
/** A credit-positive amount as a debit or a credit (the other null). */
const debitOf = (paise: number) => (paise < 0 ? rupees(-paise) : null);
const creditOf = (paise: number) => (paise > 0 ? rupees(paise) : null);
function sided(paise: number) {
  return { debit: debitOf(paise), credit: creditOf(paise) };
}

/** The company movements (transfers that are no ledger kind): db/books.ts callers' `kind`. */
const OTHER_KINDS: Record<string, string> = {
  bank_release: 'Bank Transfer Released',
  bank_settle: 'Bank Transfer Settled',
  shortfall: 'Shortfall',
  run_reversal: 'Reversal of a Run',
};

/** A transfer's or a line's kind in words: the ledger's kinds, the company movements, or the code made readable. */
export function kindLabel(kind: string): string {
  const label = ledgerKindLabel(kind);
  if (label !== kind) return label;
  if (OTHER_KINDS[kind]) return OTHER_KINDS[kind];
  const words = kind.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const RUN_KINDS: Record<string, string> = {
  daily_payout: 'Daily payout', level_income: 'Level income', royalty: 'Royalty', reward: 'Reward', rewards: 'Rewards',
};
/** yyyy-mm-dd → dd-mm-yyyy. */
const day = (isoDay: string) => isoDay.slice(0, 10).split('-').reverse().join('-');

/** What caused a transfer, as data and in words. */
export function causeOf(r: repo.CauseRow): TransferCause {
  const parts: string[] = [];
  if (r.runId !== null) {
    const period = r.periodStart && r.periodEnd ? ` (${r.periodStart === r.periodEnd ? day(r.periodStart) : `${day(r.periodStart)} to ${day(r.periodEnd)}`})` : '';
    parts.push(`${r.runKind ? `${RUN_KINDS[r.runKind] ?? kindLabel(r.runKind)} run` : 'Run'} #${r.runId}${period}`);
  }
  if (r.batchId !== null && r.runId === null) parts.push(`income batch #${r.batchId}`);
  if (r.approvalId !== null) parts.push(`approval request #${r.approvalId}`);
  if (r.bankBatchId !== null) parts.push(`bank batch #${r.bankBatchId}`);
  if (r.actorId !== null) parts.push(`by ${r.actorName ?? `operator #${r.actorId}`}`);
  const text = parts.length ? parts.join(', ') : 'System';
  return {
    run: r.runId !== null ? { runId: r.runId, kind: r.runKind, periodStart: r.periodStart, periodEnd: r.periodEnd } : null,
    batchId: r.batchId,
    approvalId: r.approvalId,
    bankBatchId: r.bankBatchId,
    operator: r.actorId !== null ? { userId: r.actorId, name: r.actorName } : null,
    text: text.charAt(0).toUpperCase() + text.slice(1),
  };
}

/** GET /books/trial-balance: every account's balance at the end of an India day (today by default). */
export async function trialBalance(ctx: Ctx, date?: string): Promise<TrialBalance> {
  const asOf = date ?? (await repo.indiaToday(ctx.database));
  const rows = await repo.trialBalance(ctx.database, asOf);
  let debitPaise = 0;
  let creditPaise = 0;
  for (const r of rows) {
    if (r.balancePaise < 0) debitPaise -= r.balancePaise;
    else creditPaise += r.balancePaise;
  }
  return {
    date: asOf,
    accounts: rows.map((r) => ({
      code: r.code as BookAccountCode, name: r.name, type: r.type as BookAccountType, description: r.description,
      balance: rupees(r.balancePaise), debit: debitOf(r.balancePaise), credit: creditOf(r.balancePaise),
    })),
    totalDebit: rupees(debitPaise),
    totalCredit: rupees(creditPaise),
    difference: rupees(creditPaise - debitPaise),
    balanced: creditPaise === debitPaise,
  };
}

const notFound = (code: string) => new AppError(404, `Account ${code} not found`);

/** A leg as a statement line (the CSV adds its India time). Properties written out, not spread: see books.repository's legOf. */
function legLine(r: repo.LegRow, openingPaise: number): StatementLeg {
  return {
    id: r.id,
    transferId: r.transferId,
    dateTime: r.dateTime,
    kind: r.lineKind ?? r.transferKind,
    kindLabel: kindLabel(r.lineKind ?? r.transferKind),
    description: r.lineDescription ?? r.transferDescription,
    member: r.userId !== null ? { userId: r.userId, name: r.userName } : null,
    debit: debitOf(r.amountPaise),
    credit: creditOf(r.amountPaise),
    balanceAfter: rupees(openingPaise + r.runningPaise),
    cause: causeOf(r),
  };
}

/**
 * GET /books/accounts/:code/statement: opening, debits, credits, closing (all from the daily
 * rollups, at any size of period), and a page of the period's legs, oldest first — one statement.
 */
export async function accountStatement(ctx: Ctx, code: BookAccountCode, from: string, to: string, page: number, limit: number): Promise<AccountStatement> {
  const found = await repo.statementPage(ctx.database, code, from, to, (page - 1) * limit, limit);
  if (!found) throw notFound(code);
  const { totals, rows } = found;
  const { account } = totals;
  return {
    account: { code, name: account.name, type: account.type as BookAccountType, description: account.description },
    fromDate: from,
    toDate: to,
    opening: rupees(totals.openingPaise),
    openingSide: sided(totals.openingPaise),
    closing: rupees(totals.closingPaise),
    closingSide: sided(totals.closingPaise),
    movement: rupees(totals.closingPaise - totals.openingPaise),
    debits: rupees(totals.debitsPaise),
    credits: rupees(totals.creditsPaise),
    legs: rows.map((r) => legLine(r, totals.openingPaise)),
    total: totals.legs,
    page,
    limit,
  };
}

/** Where a statement's CSV is: after this leg, the balance after it. */
export interface StatementCursor extends repo.LegKeyset {
  balancePaise: number;
}

export async function statementHead(ctx: Ctx, code: BookAccountCode, from: string, to: string) {
  const totals = await repo.periodTotals(ctx.database, code, from, to);
  if (!totals) throw notFound(code);
  return { account: totals.account, totals };
}

/** One CSV batch of an account's legs, after the cursor (or from the period's start, at the opening balance). */
export async function statementBatch(ctx: Ctx, code: BookAccountCode, from: string, to: string, openingPaise: number, cursor: StatementCursor | null, size: number) {
  const start = cursor?.balancePaise ?? openingPaise;
  const rows = await repo.legs(ctx.database, code, from, to, { skip: 0, take: size, after: cursor });
  const lines = rows.map((r) => Object.assign(legLine(r, start), { istTime: r.istTime }));
  const last = rows.at(-1);
  const next = rows.length === size && last ? { at: last.at, id: last.id, balancePaise: start + last.runningPaise } : null;
  return { lines, next };
}

/** GET /books/transfers/:id: the header, its company legs and a page of its member lines. */
export async function transfer(ctx: Ctx, id: number, page: number, limit: number): Promise<TransferDetail> {
  const header = await repo.transferHeader(ctx.database, id);
  if (!header) throw new AppError(404, `Transfer ${id} not found`);
  const [legs, totals, lines] = await Promise.all([
    repo.transferLegs(ctx.database, id),
    repo.transferLineTotals(ctx.database, id),
    repo.transferLines(ctx.database, id, (page - 1) * limit, limit),
  ]);
  const beforeTheBooks = lines.length === 1 && totals.lines === 1 && lines[0].id === id
    && (header.transferDescription ?? '').startsWith('Before the books');
  return {
    id,
    kind: header.transferKind,
    kindLabel: kindLabel(header.transferKind),
    dateTime: header.dateTime,
    description: header.transferDescription,
    cause: causeOf(header),
    corrects: header.corrects,
    correctedBy: header.correctedBy,
    beforeTheBooks,
    companyLegs: legs.map((l) => ({ account: l.account as BookAccountCode, name: l.name, debit: debitOf(l.amountPaise), credit: creditOf(l.amountPaise) })),
    memberLines: lines.map((l) => ({
      id: l.id,
      member: { userId: l.userId, name: l.userName },
      kind: l.kind,
      kindLabel: kindLabel(l.kind),
      description: l.description,
      debit: debitOf(l.amountPaise),
      credit: creditOf(l.amountPaise),
      counterAccount: l.counterAccount,
    })),
    memberLinesTotal: totals.lines,
    memberTotal: rupees(totals.totalPaise),
    page,
    limit,
  };
}
