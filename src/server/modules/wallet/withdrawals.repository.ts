import { count, desc, eq, sql } from 'drizzle-orm';
import { paiseToRupees } from '../../../contract/common.ts';
import type { WithdrawalRequest } from '../../../contract/wallet.ts';
import type { Db } from '../../db/client.ts';
import { iso } from '../../db/rows.ts';
import { users } from '../../db/schema/members.ts';
import { withdrawalRequests } from '../../db/schema/money.ts';

type WithdrawalStatus = (typeof withdrawalRequests.$inferSelect)['status'];
type WithdrawalRow = typeof withdrawalRequests.$inferSelect & { userName: string };

export const toWithdrawal = (r: WithdrawalRow): WithdrawalRequest => ({
  id: r.id,
  userId: r.userId,
  userName: r.userName,
  amount: paiseToRupees(r.amountPaise),
  status: r.status,
  remarks: r.remarks,
  transactionId: r.ledgerEntryId,
  requestedBy: r.requestedBy,
  decidedBy: r.decidedBy,
  decidedAt: r.decidedAt === null ? null : iso(r.decidedAt),
  createdAt: iso(r.createdAt),
});

const selectWithdrawals = (db: Db) =>
  db.select({ w: withdrawalRequests, userName: sql<string>`coalesce(${users.username}, ${users.fullName})` })
    .from(withdrawalRequests)
    .innerJoin(users, eq(users.userId, withdrawalRequests.userId));

export async function findWithdrawal(db: Db, id: number): Promise<WithdrawalRequest | null> {
  const [row] = await selectWithdrawals(db).where(eq(withdrawalRequests.id, id));
  return row ? toWithdrawal({ ...row.w, userName: row.userName }) : null;
}

const withStatus = (status: WithdrawalStatus | undefined) => (status ? eq(withdrawalRequests.status, status) : undefined);

export async function countWithdrawals(db: Db, status: WithdrawalStatus | undefined): Promise<number> {
  const [counted] = await db.select({ n: count() }).from(withdrawalRequests).where(withStatus(status));
  return counted.n;
}

export async function listWithdrawals(db: Db, status: WithdrawalStatus | undefined, page: number, limit: number) {
  const [rows, total] = await Promise.all([
    selectWithdrawals(db).where(withStatus(status))
      .orderBy(desc(withdrawalRequests.createdAt), desc(withdrawalRequests.id)).limit(limit).offset((page - 1) * limit),
    countWithdrawals(db, status),
  ]);
  return { data: rows.map((r) => toWithdrawal({ ...r.w, userName: r.userName })), total };
}

export async function insertWithdrawal(db: Db, values: { userId: number; amountPaise: number; remarks: string | null; requestedBy: number }) {
  const [row] = await db.insert(withdrawalRequests).values(values).returning({ id: withdrawalRequests.id });
  return row.id;
}

/** The request, its row locked until the transaction ends: two decisions at once are taken one after the other. */
export async function lockWithdrawal(db: Db, id: number) {
  const [row] = await db
    .select({
      userId: withdrawalRequests.userId, amountPaise: withdrawalRequests.amountPaise,
      status: withdrawalRequests.status, requestedBy: withdrawalRequests.requestedBy,
    })
    .from(withdrawalRequests)
    .where(eq(withdrawalRequests.id, id))
    .for('update');
  return row ?? null;
}

export async function recordDecision(
  db: Db, id: number, decision: { status: 'approved' | 'rejected'; remarks: string | null; decidedBy: number },
) {
  await db.update(withdrawalRequests)
    .set({
      status: decision.status,
      remarks: sql`coalesce(${decision.remarks}, ${withdrawalRequests.remarks})`,
      decidedBy: decision.decidedBy,
      decidedAt: sql`now()`,
    })
    .where(eq(withdrawalRequests.id, id));
}

export async function linkLedgerEntry(db: Db, id: number, ledgerEntryId: number) {
  await db.update(withdrawalRequests).set({ ledgerEntryId }).where(eq(withdrawalRequests.id, id));
}
