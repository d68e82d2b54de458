import type { MemberStatement } from '../../../contract/books.ts';
import { paiseToRupees } from '../../../contract/common.ts';
import { ledgerKindLabel } from '../../../contract/ledger-kinds.ts';
import { type EarnedKind, type MemberLedgerFilters, type MemberLedgerLine, type MemberMoney } from '../../../contract/member-money.ts';
import { iso } from '../../db/rows.ts';
import type { Ctx } from '../../lib/context.ts';
import { AppError } from '../../lib/errors.ts';
import * as repo from './member-money.repository.ts';

const rupees = (paise: number) => paiseToRupees(paise);

/**
 * The member whose money is asked for. A staff account holds no wallet (issue 22): it answers 404
 * saying so, not an empty wallet; an unknown or deleted id answers "Member N not found".
 */
async function requireMember(ctx: Ctx, userId: number) {
  const account = await repo.accountOf(ctx.database, userId);
  if (!account) throw new AppError(404, `Member ${userId} not found`);
  if (account.canSignIn) throw new AppError(404, `User ${userId} is a staff account: staff hold no wallet`);
  return account;
}

/** The kinds of income the member page adds up, and the ledger kinds each is made of. */
const INCOME = {
  levelIncome: { main: ['level_income'], deductions: [] },
  dailyPayout: { main: ['daily_payout'], deductions: ['tds', 'admin_charge'] },
  royalty: { main: ['royalty'], deductions: [] },
  rewards: { main: ['reward', 'referral_bonus'], deductions: [] },
} as const;

type Sums = Awaited<ReturnType<typeof repo.sumsByKind>>;

/**
 * One income's figures. gross: the original credits; deductions: TDS and admin charge as taken;
 * reversed: what reversals took back, net of the deductions they gave back; net = what the member
 * kept = the sum of every line of those kinds.
 */
function earnedOf(sums: Sums, main: readonly string[], deductions: readonly string[]): EarnedKind {
  const add = (kinds: readonly string[], reversal: boolean) =>
    sums.filter((s) => kinds.includes(s.kind) && s.reversal === reversal).reduce((sum, s) => sum + s.totalPaise, 0);
  const gross = add(main, false);
  const taken = -add(deductions, false);
  const reversed = -(add(main, true) + add(deductions, true));
  return { gross: rupees(gross), deductions: rupees(taken), reversed: rupees(reversed), net: rupees(gross - taken - reversed) };
}

/** GET /wallet/members/:userId/money: balance, recovery, earned to date by kind, membership. */
export async function memberMoney(ctx: Ctx, userId: number): Promise<MemberMoney> {
  const account = await requireMember(ctx, userId);
  const [sums, membership] = await Promise.all([repo.sumsByKind(ctx.database, userId), repo.membershipOf(ctx.database, userId)]);
  const kindTotal = (kind: string, reversal: boolean) => sums.find((s) => s.kind === kind && s.reversal === reversal)?.totalPaise ?? 0;
  const levelIncome = earnedOf(sums, INCOME.levelIncome.main, INCOME.levelIncome.deductions);
  const payout = earnedOf(sums, INCOME.dailyPayout.main, INCOME.dailyPayout.deductions);
  const royalty = earnedOf(sums, INCOME.royalty.main, INCOME.royalty.deductions);
  const rewards = earnedOf(sums, INCOME.rewards.main, INCOME.rewards.deductions);
  // Net in paise, added as integers: never a float sum.
  const netPaise = [levelIncome, payout, royalty, rewards].reduce((sum, k) => sum + Math.round(k.net * 100), 0);
  return {
    userId,
    fullName: account.fullName,
    balance: rupees(account.balancePaise),
    recoveryOwed: rupees(account.recoveryPaise),
    recovered: rupees(-(kindTotal('recovery', false) + kindTotal('recovery', true))),
    earned: {
      levelIncome,
      dailyPayout: { ...payout, tds: rupees(-kindTotal('tds', false)), adminCharge: rupees(-kindTotal('admin_charge', false)) },
      royalty,
      rewards,
      totalNet: rupees(netPaise),
    },
    membership: membership
      ? {
        planName: (membership.planName as string | null) ?? null,
        status: membership.status as 'active' | 'completed' | 'legacy',
        amount: rupees(Number(membership.amount)),
        activatedAt: iso(membership.activatedAt as Date | string),
        startsOn: (membership.startsOn as string | null) ?? null,
        durationDays: Number(membership.durationDays),
        daysEarned: Number(membership.daysEarned),
        earned: rupees(Number(membership.earned)),
        cap: rupees(Number(membership.cap)),
      }
      : null,
  };
}

const RUN_KINDS: Record<string, string> = {
  daily_payout: 'Daily payout', level_income: 'Level income', royalty: 'Royalty', reward: 'Reward', rewards: 'Rewards',
};
const runKindLabel = (kind: string) => RUN_KINDS[kind] ?? ledgerKindLabel(kind);
/** yyyy-mm-dd → dd-mm-yyyy, the wire's and the screens' date. */
const day = (isoDay: string) => isoDay.slice(0, 10).split('-').reverse().join('-');
const period = (start: string, end: string) => (start === end ? day(start) : `${day(start)} to ${day(end)}`);

/** The other side of a line in words: run, batch, approval, operator, reversed line. */
function counterparty(r: repo.LedgerLineRow, approval: repo.LineApproval | undefined): string {
  const parts: string[] = [];
  if (r.runId !== null) {
    parts.push(r.runKind && r.periodStart && r.periodEnd
      ? `${runKindLabel(r.runKind)} run #${r.runId} (${period(r.periodStart, r.periodEnd)})`
      : `Run #${r.runId}`);
  } else if (r.batchKind && r.batchDate) {
    parts.push(`${runKindLabel(r.batchKind)} batch of ${day(r.batchDate)}`);
  }
  if (r.reversalOf !== null) parts.push(`reversal of line #${r.reversalOf}`);
  if (approval) {
    parts.push(`approval request #${approval.id} (asked by ${approval.makerName ?? 'an operator'}, approved by ${approval.checkerName ?? 'an operator'})`);
  } else if (r.actorName) {
    parts.push(`by ${r.actorName}`);
  }
  if (parts.length === 0) return r.kind === 'recovery' ? 'Recovery of a reversal shortfall' : 'System';
  const text = parts.join(', ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function toLine(r: repo.LedgerLineRow, after: number, approval: repo.LineApproval | undefined): MemberLedgerLine {
  return {
    id: r.id,
    dateTime: r.dateTime,
    kind: r.kind,
    kindLabel: ledgerKindLabel(r.kind),
    type: r.amountPaise > 0 ? 'credit' : 'debit',
    amount: Math.abs(rupees(r.amountPaise)),
    balanceAfter: rupees(after),
    description: r.description,
    counterparty: counterparty(r, approval),
    run: r.runId !== null && r.runKind && r.periodStart && r.periodEnd
      ? { runId: r.runId, kind: r.runKind, periodStart: r.periodStart, periodEnd: r.periodEnd }
      : null,
    operator: r.actorId !== null && r.actorName ? { userId: r.actorId, name: r.actorName } : null,
    approval: approval ? { id: approval.id, makerName: approval.makerName, checkerName: approval.checkerName } : null,
    reversalOf: r.reversalOf,
  };
}

/** The lines with their balance after and their approval; `start` as in repo.balancesAfter. */
async function complete(ctx: Ctx, userId: number, rows: repo.LedgerLineRow[], start: number | null, upper: repo.LedgerKeyset | null) {
  const last = rows.at(-1);
  if (!last) return [];
  const ids = rows.map((r) => r.id);
  const [after, approvals] = await Promise.all([
    repo.balancesAfter(ctx.database, userId, start, upper, { at: last.at, id: last.id }, ids),
    repo.approvalsOf(ctx.database, userId, ids),
  ]);
  return rows.map((r) => toLine(r, after.get(r.id) ?? 0, approvals.get(r.id)));
}

/** GET /wallet/members/:userId/ledger: one page, newest first. */
export async function memberLedgerPage(ctx: Ctx, userId: number, f: MemberLedgerFilters, page: number, limit: number) {
  await requireMember(ctx, userId);
  const [rows, total] = await Promise.all([
    repo.ledgerPage(ctx.database, userId, f, page, limit),
    repo.ledgerCount(ctx.database, userId, f),
  ]);
  return { data: await complete(ctx, userId, rows, null, null), total };
}

/**
 * Where a CSV export is: below the last line written, and the balance just before that line
 * (its balance after minus its own amount), from which the next batch's balances follow.
 */
export interface LedgerCursor {
  at: string;
  id: number;
  balanceBeforePaise: number;
}

/** Refuses (404) an id that is not a live member's wallet: before a CSV export, or another module's money view of the member. */
export async function requireWalletMember(ctx: Ctx, userId: number) {
  await requireMember(ctx, userId);
}

/** One CSV batch: the lines (with India time) and where the next starts. */
export async function memberLedgerBatch(ctx: Ctx, userId: number, f: MemberLedgerFilters, cursor: LedgerCursor | null, size: number) {
  const rows = await repo.ledgerBatch(ctx.database, userId, f, cursor, size);
  const lines = await complete(ctx, userId, rows, cursor?.balanceBeforePaise ?? null, cursor);
  const last = rows.at(-1);
  const lastLine = lines.at(-1);
  const next = rows.length === size && last && lastLine
    ? { at: last.at, id: last.id, balanceBeforePaise: Math.round(lastLine.balanceAfter * 100) - last.amountPaise }
    : null;
  return { lines: lines.map((line, i) => ({ ...line, istTime: rows[i].istTime })), next };
}

// ---- Issue 25: the member statement ----

/** A statement line; its properties written out, not spread (V8 copies a spread through a slow path, per row). */
function statementLine(r: repo.StatementLineRow, startPaise: number) {
  return {
    id: r.id,
    transferId: r.transferId,
    dateTime: r.dateTime,
    kind: r.kind,
    kindLabel: ledgerKindLabel(r.kind),
    description: r.description,
    counterAccount: r.counterAccount,
    debit: r.amountPaise < 0 ? rupees(-r.amountPaise) : null,
    credit: r.amountPaise > 0 ? rupees(r.amountPaise) : null,
    balanceAfter: rupees(startPaise + r.runningPaise),
  };
}

/** GET /wallet/members/:userId/statement: opening, the period's credits and debits, closing, a page of lines oldest first. */
export async function memberStatement(ctx: Ctx, userId: number, from: string, to: string, page: number, limit: number): Promise<MemberStatement> {
  const account = await requireMember(ctx, userId);
  const totals = await repo.statementTotals(ctx.database, userId, from, to);
  const rows = await repo.statementLines(ctx.database, userId, from, to, { skip: (page - 1) * limit, take: limit });
  return {
    userId,
    fullName: account.fullName,
    fromDate: from,
    toDate: to,
    opening: rupees(totals.openingPaise),
    closing: rupees(totals.openingPaise + totals.creditsPaise - totals.debitsPaise),
    credits: rupees(totals.creditsPaise),
    debits: rupees(totals.debitsPaise),
    lines: rows.map((r) => statementLine(r, totals.openingPaise)),
    total: totals.lines,
    page,
    limit,
  };
}

/** Where a statement CSV is: after this line, and the balance after it. */
export interface StatementCursor extends repo.LedgerKeyset {
  balancePaise: number;
}

export async function memberStatementHead(ctx: Ctx, userId: number, from: string, to: string) {
  const account = await requireMember(ctx, userId);
  return { account, totals: await repo.statementTotals(ctx.database, userId, from, to) };
}

export async function memberStatementBatch(ctx: Ctx, userId: number, from: string, to: string, openingPaise: number, cursor: StatementCursor | null, size: number) {
  const start = cursor?.balancePaise ?? openingPaise;
  const rows = await repo.statementLines(ctx.database, userId, from, to, { skip: 0, take: size, after: cursor });
  const last = rows.at(-1);
  return {
    lines: rows.map((r) => Object.assign(statementLine(r, start), { istTime: r.istTime })),
    next: rows.length === size && last ? { at: last.at, id: last.id, balancePaise: start + last.runningPaise } : null,
  };
}
