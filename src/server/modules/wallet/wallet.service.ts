import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { paiseToRupees, rupeesToPaise } from '../../../contract/common.ts';
import type { Database, Db } from '../../db/client.ts';
import { AppError } from '../../plugins/errors.ts';
import type { MoneyResult } from '../../plugins/idempotency.ts';
import { rowsOf } from '../../db/client.ts';
import { postEntry } from '../../db/ledger.ts';
import { iso } from './wallet.repository.ts';

const rupees = (paise: number | string) => paiseToRupees(paise);

/** POST /wallets/userWalletRecharge: one credit or debit; a withdrawal above the balance writes nothing. */
export async function rechargeOrWithdraw(
  tx: Db,
  request: FastifyRequest,
  body: { userId: number; amount: number; transactionType: 'wallet_recharge' | 'wallet_withdrawal' },
): Promise<MoneyResult> {
  const paise = rupeesToPaise(body.amount);
  const recharge = body.transactionType === 'wallet_recharge';
  const posted = await postEntry(tx, {
    userId: body.userId,
    kind: body.transactionType,
    amountPaise: recharge ? paise : -paise,
    description: recharge ? 'Wallet recharge by administrator' : 'Wallet withdrawal by administrator',
    actorId: request.auth!.userId,
  });
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
  decided_by: number | null;
  decided_at: Date | string | null;
  created_at: Date | string;
}

const WITHDRAWAL_COLUMNS = `w.id, w.user_id, coalesce(u.username, u.full_name) as user_name, w.amount_paise, w.status,
  w.remarks, w.ledger_entry_id, w.decided_by, w.decided_at, w.created_at`;

function toWithdrawal(r: WithdrawalRow) {
  return {
    id: Number(r.id),
    userId: Number(r.user_id),
    userName: r.user_name,
    amount: rupees(r.amount_paise),
    status: r.status,
    remarks: r.remarks,
    transactionId: r.ledger_entry_id === null ? null : Number(r.ledger_entry_id),
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
  request: FastifyRequest,
  body: { userId: number; amount: number; remarks?: string },
): Promise<MoneyResult> {
  const paise = rupeesToPaise(body.amount);
  const [member] = rowsOf<{ balance_paise: number | string }>(await tx.execute(sql`
    select balance_paise from users where user_id = ${body.userId} and deleted_at is null`));
  if (!member) throw new AppError(404, `Member ${body.userId} not found`);
  if (Number(member.balance_paise) < paise) {
    throw new AppError(400, `Insufficient wallet balance: the member has ${rupees(member.balance_paise).toFixed(2)} and ${body.amount.toFixed(2)} was requested`);
  }
  const [created] = rowsOf<{ id: number }>(await tx.execute(sql`
    insert into withdrawal_requests (user_id, amount_paise, remarks) values (${body.userId}, ${paise}, ${body.remarks ?? null})
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
 * pending request can be decided; the guarded UPDATE makes two concurrent decisions give one 409.
 */
export async function decideWithdrawal(
  tx: Db,
  request: FastifyRequest,
  id: number,
  body: { status: 'approved' | 'rejected'; remarks?: string },
): Promise<MoneyResult> {
  const actorId = request.auth!.userId;
  const [claimed] = rowsOf<{ user_id: number; amount_paise: number }>(await tx.execute(sql`
    update withdrawal_requests set status = ${body.status}, remarks = coalesce(${body.remarks ?? null}, remarks),
           decided_by = ${actorId}, decided_at = now()
     where id = ${id} and status = 'pending' returning user_id, amount_paise`));
  if (!claimed) {
    const existing = await withdrawalById(tx, id);
    if (!existing) throw new AppError(404, `Withdrawal request ${id} not found`);
    throw new AppError(409, `Withdrawal request ${id} has already been ${existing.status}`);
  }
  if (body.status === 'approved') {
    const posted = await postEntry(tx, {
      userId: Number(claimed.user_id),
      kind: 'wallet_withdrawal',
      amountPaise: -Number(claimed.amount_paise),
      description: `Withdrawal request ${id}`,
      actorId,
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
