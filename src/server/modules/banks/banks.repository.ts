import { and, asc, desc, eq, isNull, ne, sql } from 'drizzle-orm';
import type { BankAccount } from '../../../contract/banks.ts';
import type { Db } from '../../db/client.ts';
import { iso } from '../../db/rows.ts';
import { bankAccounts, users } from '../../db/schema/members.ts';
import { moneyRequests } from '../../db/schema/money.ts';

export type BankRow = typeof bankAccounts.$inferSelect;

export const toBankAccount = (r: BankRow): BankAccount => ({
  _id: String(r.bankId),
  bankId: r.bankId,
  userId: r.userId,
  accountHolderName: r.accountHolderName,
  accountNumber: r.accountNumber,
  ifsc: r.ifsc,
  bank: r.bank,
  branch: r.branch,
  isPrimary: r.isPrimary,
  createdAt: iso(r.createdAt),
});

/** A member's accounts, the primary first. */
export async function banksOfUser(db: Db, userId: number): Promise<BankRow[]> {
  return db.select().from(bankAccounts).where(eq(bankAccounts.userId, userId)).orderBy(desc(bankAccounts.isPrimary), bankAccounts.bankId);
}

/** Accounts of live members (never staff, who hold none), newest first, one page, with the total of all matches. */
export async function listBanks(db: Db, f: { userId?: number; page: number; limit: number }): Promise<{ rows: BankRow[]; total: number }> {
  const where = and(isNull(users.deletedAt), eq(users.canSignIn, false), f.userId === undefined ? undefined : eq(bankAccounts.userId, f.userId));
  const rows = await db
    .select({ account: bankAccounts, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(bankAccounts)
    .innerJoin(users, eq(users.userId, bankAccounts.userId))
    .where(where)
    .orderBy(desc(bankAccounts.bankId))
    .limit(f.limit)
    .offset((f.page - 1) * f.limit);
  return { rows: rows.map((r) => r.account), total: rows[0]?.total ?? 0 };
}

/** A batch of the bank export: accounts of live members (never staff) after `afterId`, by bank id, with the holder's member name. */
export async function banksBatch(db: Db, afterId: number, limit: number): Promise<(BankRow & { memberName: string })[]> {
  const rows = await db
    .select({ account: bankAccounts, memberName: users.fullName })
    .from(bankAccounts)
    .innerJoin(users, eq(users.userId, bankAccounts.userId))
    .where(and(sql`${bankAccounts.bankId} > ${afterId}`, isNull(users.deletedAt), eq(users.canSignIn, false)))
    .orderBy(asc(bankAccounts.bankId))
    .limit(limit);
  return rows.map((r) => ({ ...r.account, memberName: r.memberName }));
}

export async function findBank(db: Db, bankId: number): Promise<BankRow | null> {
  const [row] = await db.select().from(bankAccounts).where(eq(bankAccounts.bankId, bankId));
  return row ?? null;
}

/** Another account of the member with this number at this branch. */
export async function sameAccountExists(
  db: Db,
  a: { userId: number; accountNumber: string; ifsc: string },
  exceptBankId = 0,
): Promise<boolean> {
  const rows = await db
    .select({ bankId: bankAccounts.bankId })
    .from(bankAccounts)
    .where(
      and(
        eq(bankAccounts.userId, a.userId),
        eq(bankAccounts.accountNumber, a.accountNumber),
        eq(bankAccounts.ifsc, a.ifsc),
        ne(bankAccounts.bankId, exceptBankId),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** The member's primary account (where gathers send their money), or null while they have none. */
export async function primaryOf(db: Db, userId: number): Promise<BankRow | null> {
  const [row] = await db.select().from(bankAccounts)
    .where(and(eq(bankAccounts.userId, userId), eq(bankAccounts.isPrimary, true))).limit(1);
  return row ?? null;
}

export async function insertBank(db: Db, values: typeof bankAccounts.$inferInsert): Promise<BankRow> {
  const [row] = await db.insert(bankAccounts).values(values).returning();
  return row;
}

export async function updateBank(db: Db, bankId: number, changes: Partial<typeof bankAccounts.$inferInsert>): Promise<BankRow> {
  const [row] = await db.update(bankAccounts).set(changes).where(eq(bankAccounts.bankId, bankId)).returning();
  return row;
}

export async function deleteBank(db: Db, bankId: number): Promise<void> {
  await db.delete(bankAccounts).where(eq(bankAccounts.bankId, bankId));
}

/** Unsets the member's current primary, in the transaction that sets a new one. */
export async function clearPrimary(tx: Db, userId: number): Promise<void> {
  await tx
    .update(bankAccounts)
    .set({ isPrimary: false })
    .where(and(eq(bankAccounts.userId, userId), eq(bankAccounts.isPrimary, true)));
}

/** Whether the account signs in to the panel (staff), which no bank account may belong to. */
export async function signsIn(db: Db, userId: number): Promise<boolean> {
  const [row] = await db.select({ canSignIn: users.canSignIn }).from(users).where(eq(users.userId, userId));
  return row?.canSignIn ?? false;
}

/** The account, locked until the transaction ends. */
export async function lockBank(db: Db, bankId: number): Promise<BankRow | null> {
  const [row] = await db.select().from(bankAccounts).where(eq(bankAccounts.bankId, bankId)).for('update');
  return row ?? null;
}

/** The pending four-eyes request changing this account, if any. */
export async function pendingChange(db: Db, bankId: number): Promise<number | null> {
  const [row] = await db
    .select({ id: moneyRequests.id })
    .from(moneyRequests)
    .where(and(eq(moneyRequests.status, 'pending'), eq(moneyRequests.kind, 'bank_account_change'),
      sql`${moneyRequests.payload}->>'bankId' = ${String(bankId)}`))
    .limit(1);
  return row?.id ?? null;
}
