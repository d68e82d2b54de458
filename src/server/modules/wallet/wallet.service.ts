import { paiseToRupees, rupeesToPaise } from '../../../contract/common.ts';
import type { RechargeBody, walletApi } from '../../../contract/wallet.ts';
import type { ReplyOf } from '../../../contract/endpoint.ts';
import type { Db } from '../../db/client.ts';
import { iso } from '../../db/rows.ts';
import { postEntry } from '../../db/books.ts';
import type { Ctx } from '../../lib/context.ts';
import { AppError } from '../../lib/errors.ts';
import type { MoneyResult, MoneyContext } from '../../lib/money/movement.ts';
import {
  countDailyCredit, holdForApproval, movedToday, needsApproval, operatorDay, refuseOverDailyLimit, refuseOwnWallet, refuseSecondPending, sumReason,
} from '../../lib/money/four-eyes.ts';
import { actorId } from '../../lib/context.ts';
import * as repo from './wallet.repository.ts';
import * as withdrawals from './withdrawals.repository.ts';

const rupees = (paise: number) => paiseToRupees(paise);
const memberNotFound = (userId: number) => new AppError(404, `Member ${userId} not found`);

async function member(db: Db, userId: number): Promise<repo.MemberRow> {
  const found = await repo.findMember(db, userId);
  if (!found) throw memberNotFound(userId);
  return found;
}

/**
 * Money moves only to and from members' wallets (issue 22): a staff account, the administrator's
 * included, answers "Member N not found" like an id nobody holds. Every money path that names a
 * member calls this (or a lookup through findMember, or four-eyes.ts `needsApproval`, whose
 * reservation statement finds the member) before it writes anything.
 */
export async function requireMemberWallet(db: Db, userId: number): Promise<void> {
  await member(db, userId);
}

/** The member's balance; 404 when there is no such (live) member. */
async function balanceOf(tx: Db, userId: number): Promise<number> {
  return (await member(tx, userId)).balancePaise;
}

function refuseAboveBalance(balancePaise: number, paise: number) {
  if (balancePaise < paise) {
    throw new AppError(400, `Insufficient wallet balance: the member has ${rupees(balancePaise).toFixed(2)} and ${rupees(paise).toFixed(2)} was requested`);
  }
}

// ---- Reads ----

export async function walletTransactions(ctx: Ctx, input: repo.WalletListFilters & { page: number; limit: number }) {
  const { page, limit, ...filters } = input;
  return repo.listWalletTransactions(ctx.database, filters, page, limit);
}

export function walletTransactionsBatch(ctx: Ctx, filters: repo.WalletListFilters, after: repo.Keyset | null, size: number) {
  return repo.walletTransactionsBatch(ctx.database, filters, after, size);
}

/** One member's ledger for the Membership screen, with who they are and their balance now. */
export async function memberLedger(ctx: Ctx, input: { userId: number; page: number; limit: number }) {
  const found = await member(ctx.database.db, input.userId);
  const { history, total } = await repo.memberHistory(ctx.database.db, found.userId, input.page, input.limit);
  return {
    user: { userId: found.userId, fullName: found.fullName, email: found.email, phone: found.phone, status: found.status },
    currentAmount: rupees(found.balancePaise),
    history,
    total,
  };
}

export async function balance(ctx: Ctx, userId: number) {
  const found = await member(ctx.database.db, userId);
  return { userId: found.userId, balance: rupees(found.balancePaise) };
}

export function balances(ctx: Ctx, input: { userName?: string; page: number; limit: number }) {
  return repo.listBalances(ctx.database.db, input.userName, input.page, input.limit);
}

/** Platform-wide wallet figures from the kept totals: the sum of all balances is the sum of the ledger. */
export async function summary(ctx: Ctx) {
  const [rows, pending] = await Promise.all([
    repo.ledgerTotalsByKind(ctx.database.db),
    withdrawals.countWithdrawals(ctx.database.db, 'pending'),
  ]);
  const of = (kind: string) => rows.find((r) => r.kind === kind);
  return {
    totalBalance: rupees(rows.reduce((sum, r) => sum + r.totalPaise, 0)),
    recharges: { count: of('wallet_recharge')?.entries ?? 0, amount: rupees(of('wallet_recharge')?.totalPaise ?? 0) },
    withdrawals: {
      count: of('wallet_withdrawal')?.entries ?? 0,
      amount: Math.abs(rupees(of('wallet_withdrawal')?.totalPaise ?? 0)),
    },
    pendingWithdrawals: pending,
  };
}

/** What the signed-in operator may still move today, and for one member before a checker (issue 22). */
export async function myDay(ctx: Ctx, userId: number | undefined) {
  const { db } = ctx.database;
  const me = actorId(ctx);
  const { approvalThresholdPaise: threshold, dailyCreditLimitPaise: credit, dailyDebitLimitPaise: debit } = ctx.config;
  const day = await operatorDay(db, me);
  const base = {
    approvalThreshold: rupees(threshold),
    dailyCreditLimit: rupees(credit), creditedToday: rupees(day.credited), creditLeft: rupees(Math.max(0, credit - day.credited)),
    dailyDebitLimit: rupees(debit), debitedToday: rupees(day.debited), debitLeft: rupees(Math.max(0, debit - day.debited)),
  };
  if (userId === undefined) return base;
  const moved = await movedToday(db, me, userId);
  return { ...base, userId, movedForMember: rupees(moved), leftBeforeApproval: rupees(Math.max(0, threshold - moved)) };
}

export async function memberSummary(ctx: Ctx, userId: number) {
  const found = await member(ctx.database.db, userId);
  const s = await repo.memberLedgerSummary(ctx.database.db, userId);
  return {
    userId,
    userName: found.userName,
    balance: rupees(found.balancePaise),
    totalCredits: rupees(s.credits),
    totalDebits: rupees(s.debits),
    transactions: s.n,
    lastTransactionAt: s.last ? iso(s.last) : null,
  };
}

export async function transaction(ctx: Ctx, id: number) {
  const found = await repo.findTransaction(ctx.database.db, id);
  if (!found) throw new AppError(404, `Transaction ${id} not found`);
  return found;
}

export function listWithdrawals(ctx: Ctx, input: { status?: 'pending' | 'approved' | 'rejected'; page: number; limit: number }) {
  return withdrawals.listWithdrawals(ctx.database.db, input.status, input.page, input.limit);
}

// ---- Money movements: each runs in the idempotency wrapper's transaction `tx` ----

/**
 * POST /wallets/userWalletRecharge: one credit or debit; a withdrawal above the balance writes
 * nothing. Above the approval threshold it is only filed (202); a checker's approval runs this
 * same function with money.approved.
 */
export async function rechargeOrWithdraw(tx: Db, money: MoneyContext, body: RechargeBody): Promise<MoneyResult<ReplyOf<typeof walletApi.recharge>>> {
  refuseOwnWallet(money, body.userId);
  const paise = rupeesToPaise(body.amount);
  const recharge = body.transactionType === 'wallet_recharge';
  if (await needsApproval(tx, money, body.userId, paise)) { // a request for anyone but a live member is refused there (404)
    const current = await balanceOf(tx, body.userId);
    if (!recharge) refuseAboveBalance(current, paise);
    await refuseOverDailyLimit(tx, money, paise, recharge ? 'credit' : 'debit');
    const reason = await sumReason(tx, money, body.userId, paise);
    return holdForApproval(tx, money, { kind: body.transactionType, userId: body.userId, amountPaise: paise, payload: body, reason });
  }
  const posted = await postEntry(tx, {
    userId: body.userId,
    kind: body.transactionType,
    amountPaise: recharge ? paise : -paise,
    description: recharge ? 'Wallet recharge by administrator' : 'Wallet withdrawal by administrator',
    actorId: money.actorId,
    approvalId: money.approvalId,
  });
  return {
    status: 200,
    // The maker's counter is counted last, just before the commit (a row all their movements lock).
    dailyCount: { money, paise, direction: recharge ? 'credit' : 'debit' },
    body: {
      success: true,
      message: recharge ? 'Wallet recharged successfully' : 'Wallet withdrawal completed successfully',
      data: { transactionId: posted.entryId, userId: body.userId, amount: body.amount, balance: rupees(posted.balancePaise) },
    },
    audit: {
      action: body.transactionType,
      entity: 'ledger_entry',
      entityId: posted.entryId,
      after: { userId: body.userId, kind: body.transactionType, amountPaise: posted.amountPaise, balancePaise: posted.balancePaise },
    },
  };
}

/** POST /wallet/withdrawal: a request only; the balance is checked now and again at approval. */
export async function requestWithdrawal(
  tx: Db,
  money: MoneyContext,
  body: { userId: number; amount: number; remarks?: string },
): Promise<MoneyResult<ReplyOf<typeof walletApi.requestWithdrawal>>> {
  refuseOwnWallet(money, body.userId);
  const paise = rupeesToPaise(body.amount);
  refuseAboveBalance(await balanceOf(tx, body.userId), paise);
  const id = await withdrawals.insertWithdrawal(tx, {
    userId: body.userId, amountPaise: paise, remarks: body.remarks ?? null, requestedBy: money.actorId,
  });
  const data = (await withdrawals.findWithdrawal(tx, id))!;
  return {
    status: 201,
    body: { success: true, message: 'Withdrawal request created', data },
    audit: { action: 'request_withdrawal', entity: 'withdrawal_request', entityId: data.id, after: data },
  };
}

/**
 * PUT /wallet/withdrawals/:id: approve (the debit is posted) or reject (nothing moves). Only a
 * pending request can be decided; the row is locked first, so two concurrent decisions give one
 * 409. Who filed the request, or owns the wallet, cannot approve it; an approval above the
 * threshold is filed for a checker (202), whose approval runs this function with money.approved.
 */
export async function decideWithdrawal(
  tx: Db,
  money: MoneyContext,
  id: number,
  body: { status: 'approved' | 'rejected'; remarks?: string },
): Promise<MoneyResult<ReplyOf<typeof walletApi.decideWithdrawal>>> {
  const current = await withdrawals.lockWithdrawal(tx, id);
  if (!current) throw new AppError(404, `Withdrawal request ${id} not found`);
  if (current.status !== 'pending') throw new AppError(409, `Withdrawal request ${id} has already been ${current.status}`);
  const { userId, amountPaise: paise } = current;
  if (!money.approved) await refuseSecondPending(tx, 'withdrawal_approval', 'withdrawalId', id);
  if (body.status === 'approved') {
    refuseOwnWallet(money, userId);
    await requireMemberWallet(tx, userId);
    if (current.requestedBy !== null && current.requestedBy === money.actorId) {
      throw new AppError(403, `You filed withdrawal request ${id}: another operator must approve it`);
    }
    if (await needsApproval(tx, money, userId, paise)) {
      refuseAboveBalance(await balanceOf(tx, userId), paise);
      await refuseOverDailyLimit(tx, money, paise, 'debit');
      const reason = await sumReason(tx, money, userId, paise);
      return holdForApproval(tx, money, { kind: 'withdrawal_approval', userId, amountPaise: paise, payload: { withdrawalId: id, ...body }, reason });
    }
  }
  await withdrawals.recordDecision(tx, id, { status: body.status, remarks: body.remarks ?? null, decidedBy: money.actorId });
  if (body.status === 'approved') {
    const posted = await postEntry(tx, {
      userId,
      kind: 'wallet_withdrawal',
      amountPaise: -paise,
      description: `Withdrawal request ${id}`,
      actorId: money.actorId,
      approvalId: money.approvalId,
    });
    await withdrawals.linkLedgerEntry(tx, id, posted.entryId);
    await countDailyCredit(tx, money, paise, 'debit');
  }
  const data = (await withdrawals.findWithdrawal(tx, id))!;
  return {
    status: 200,
    body: { success: true, message: body.status === 'approved' ? 'Withdrawal approved' : 'Withdrawal rejected', data },
    audit: { action: `withdrawal_${body.status}`, entity: 'withdrawal_request', entityId: id, before: { status: 'pending' }, after: data },
  };
}
