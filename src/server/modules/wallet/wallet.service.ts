import { sql } from 'drizzle-orm';
import { paiseToRupees, rupeesToPaise } from '../../../contract/common.ts';
import type { Database, Db } from '../../db/client.ts';
import { AppError } from '../../plugins/errors.ts';
import type { MoneyResult } from '../../plugins/idempotency.ts';
import { rowsOf } from '../../db/client.ts';
import { postEntry } from '../../db/ledger.ts';
import {
  countDailyCredit, holdForApproval, needsApproval, refuseOverDailyLimit, refuseOwnWallet, refuseSecondPending, type MoneyContext,
} from '../approvals/four-eyes.ts';
import { iso } from './wallet.repository.ts';

const rupees = (paise: number | string) => paiseToRupees(paise);

/** The member's balance; 404 when there is no such (live) member. */
async function balanceOf(tx: Db, userId: number): Promise<number> {
  const [member] = rowsOf<{ balance_paise: number | string }>(await tx.execute(sql`
    select balance_paise from users where user_id = ${userId} and deleted_at is null`));
  if (!member) throw new AppError(404, `Member ${userId} not found`);
  return Number(member.balance_paise);
}

function refuseAboveBalance(balancePaise: number, paise: number) {
  if (balancePaise < paise) {
    throw new AppError(400, `Insufficient wallet balance: the member has ${rupees(balancePaise).toFixed(2)} and ${rupees(paise).toFixed(2)} was requested`);
  }
}

/**
 * POST /wallets/userWalletRecharge: one credit or debit; a withdrawal above the balance writes
 * nothing. Above the approval threshold it is only filed (202); a checker's approval runs this
 * same function with ctx.approved.
 */
export async function rechargeOrWithdraw(
  tx: Db,
  ctx: MoneyContext,
  body: { userId: number; amount: number; transactionType: 'wallet_recharge' | 'wallet_withdrawal' },
): Promise<MoneyResult> {
  refuseOwnWallet(ctx, body.userId);
  const paise = rupeesToPaise(body.amount);
  const recharge = body.transactionType === 'wallet_recharge';
  if (needsApproval(ctx, paise)) {
    const balance = await balanceOf(tx, body.userId); // a request for an unknown member is refused now
    if (recharge) await refuseOverDailyLimit(tx, ctx, paise);
    else refuseAboveBalance(balance, paise);
    return holdForApproval(tx, ctx, { kind: body.transactionType, userId: body.userId, amountPaise: paise, payload: body });
  }
  const posted = await postEntry(tx, {
    userId: body.userId,
    kind: body.transactionType,
    amountPaise: recharge ? paise : -paise,
    description: recharge ? 'Wallet recharge by administrator' : 'Wallet withdrawal by administrator',
    actorId: ctx.actorId,
  });
  if (recharge) await countDailyCredit(tx, ctx, paise);
  return {
    status: 200,
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

interface WithdrawalRow {
  id: number;
  user_id: number;
  user_name: string;
  amount_paise: number;
  status: 'pending' | 'approved' | 'rejected';
  remarks: string | null;
  ledger_entry_id: number | null;
  requested_by: number | null;
  decided_by: number | null;
  decided_at: Date | string | null;
  created_at: Date | string;
}

const WITHDRAWAL_COLUMNS = `w.id, w.user_id, coalesce(u.username, u.full_name) as user_name, w.amount_paise, w.status,
  w.remarks, w.ledger_entry_id, w.requested_by, w.decided_by, w.decided_at, w.created_at`;

function toWithdrawal(r: WithdrawalRow) {
  return {
    id: Number(r.id),
    userId: Number(r.user_id),
    userName: r.user_name,
    amount: rupees(r.amount_paise),
    status: r.status,
    remarks: r.remarks,
    transactionId: r.ledger_entry_id === null ? null : Number(r.ledger_entry_id),
    requestedBy: r.requested_by === null ? null : Number(r.requested_by),
    decidedBy: r.decided_by === null ? null : Number(r.decided_by),
    decidedAt: r.decided_at === null ? null : iso(r.decided_at),
    createdAt: iso(r.created_at),
  };
}

async function withdrawalById(tx: Db, id: number) {
  const [row] = rowsOf<WithdrawalRow>(await tx.execute(sql`
    select ${sql.raw(WITHDRAWAL_COLUMNS)} from withdrawal_requests w join users u on u.user_id = w.user_id where w.id = ${id}`));
  return row ? toWithdrawal(row) : null;
}

/** POST /wallet/withdrawal: a request only; the balance is checked now and again at approval. */
export async function requestWithdrawal(
  tx: Db,
  ctx: MoneyContext,
  body: { userId: number; amount: number; remarks?: string },
): Promise<MoneyResult> {
  refuseOwnWallet(ctx, body.userId);
  const paise = rupeesToPaise(body.amount);
  refuseAboveBalance(await balanceOf(tx, body.userId), paise);
  const [created] = rowsOf<{ id: number }>(await tx.execute(sql`
    insert into withdrawal_requests (user_id, amount_paise, remarks, requested_by)
    values (${body.userId}, ${paise}, ${body.remarks ?? null}, ${ctx.actorId})
    returning id`));
  const data = (await withdrawalById(tx, Number(created.id)))!;
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
 * threshold is filed for a checker (202), whose approval runs this function with ctx.approved.
 */
export async function decideWithdrawal(
  tx: Db,
  ctx: MoneyContext,
  id: number,
  body: { status: 'approved' | 'rejected'; remarks?: string },
): Promise<MoneyResult> {
  const [current] = rowsOf<{ user_id: number; amount_paise: number; status: string; requested_by: number | null }>(await tx.execute(sql`
    select user_id, amount_paise, status, requested_by from withdrawal_requests where id = ${id} for update`));
  if (!current) throw new AppError(404, `Withdrawal request ${id} not found`);
  if (current.status !== 'pending') throw new AppError(409, `Withdrawal request ${id} has already been ${current.status}`);
  const userId = Number(current.user_id);
  const paise = Number(current.amount_paise);
  if (!ctx.approved) await refuseSecondPending(tx, 'withdrawal_approval', 'withdrawalId', id);
  if (body.status === 'approved') {
    refuseOwnWallet(ctx, userId);
    if (current.requested_by !== null && Number(current.requested_by) === ctx.actorId) {
      throw new AppError(403, `You filed withdrawal request ${id}: another operator must approve it`);
    }
    if (needsApproval(ctx, paise)) {
      refuseAboveBalance(await balanceOf(tx, userId), paise);
      return holdForApproval(tx, ctx, { kind: 'withdrawal_approval', userId, amountPaise: paise, payload: { withdrawalId: id, ...body } });
    }
  }
  await tx.execute(sql`
    update withdrawal_requests set status = ${body.status}, remarks = coalesce(${body.remarks ?? null}, remarks),
           decided_by = ${ctx.actorId}, decided_at = now()
     where id = ${id}`);
  if (body.status === 'approved') {
    const posted = await postEntry(tx, {
      userId,
      kind: 'wallet_withdrawal',
      amountPaise: -paise,
      description: `Withdrawal request ${id}`,
      actorId: ctx.actorId,
    });
    await tx.execute(sql`update withdrawal_requests set ledger_entry_id = ${posted.entryId} where id = ${id}`);
  }
  const data = (await withdrawalById(tx, id))!;
  return {
    status: 200,
    body: { success: true, message: body.status === 'approved' ? 'Withdrawal approved' : 'Withdrawal rejected', data },
    audit: { action: `withdrawal_${body.status}`, entity: 'withdrawal_request', entityId: id, before: { status: 'pending' }, after: data },
  };
}

export async function listWithdrawals(database: Database, status: string | undefined, page: number, limit: number) {
  const params: unknown[] = [limit, (page - 1) * limit];
  if (status) params.push(status);
  const where = status ? 'where w.status = $3' : '';
  const rows = await database.query<WithdrawalRow>(`
    select ${WITHDRAWAL_COLUMNS} from withdrawal_requests w join users u on u.user_id = w.user_id
     ${where} order by w.created_at desc, w.id desc limit $1 offset $2`, params);
  const [count] = await database.query<{ n: string }>(
    `select count(*)::text as n from withdrawal_requests w ${status ? 'where w.status = $1' : ''}`, status ? [status] : []);
  return { data: rows.map(toWithdrawal), total: Number(count.n) };
}
