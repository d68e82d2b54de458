import { and, eq, ne, sql } from 'drizzle-orm';
import type { BankAccount } from '../../../contract/banks.ts';
import type { Database, Db } from '../../db/client.ts';
import { bankAccounts } from '../../db/schema/members.ts';

export type BankRow = typeof bankAccounts.$inferSelect;

export const toBankAccount = (r: BankRow): BankAccount => ({
  _id: String(r.bankId),
  bankId: r.bankId,
  userId: Number(r.userId),
  accountHolderName: r.accountHolderName,
  accountNumber: r.accountNumber,
  ifsc: r.ifsc,
  bank: r.bank,
  branch: r.branch,
  isPrimary: r.isPrimary,
  createdAt: (r.createdAt instanceof Date ? r.createdAt : new Date(r.createdAt)).toISOString(),
});

/** A member's accounts, the primary first. */
export async function banksOfUser(database: Database, userId: number): Promise<BankAccount[]> {
  const rows = await database.db
    .select()
    .from(bankAccounts)
    .where(eq(bankAccounts.userId, userId))
    .orderBy(sql`${bankAccounts.isPrimary} desc`, bankAccounts.bankId);
  return rows.map(toBankAccount);
}

/** Accounts of live members, newest first, one page. */
export async function listBanks(database: Database, f: { userId?: number; page: number; limit: number }) {
  const params: unknown[] = [f.limit, (f.page - 1) * f.limit];
  const byUser = f.userId === undefined ? '' : `and b.user_id = $${params.push(f.userId)}`;
  const rows = await database.query<Record<string, unknown>>(
    `select b.bank_id, b.user_id, b.account_holder_name, b.account_number, b.ifsc, b.bank, b.branch, b.is_primary, b.created_at,
            count(*) over () as total
       from bank_accounts b join users u on u.user_id = b.user_id
      where u.deleted_at is null ${byUser}
      order by b.bank_id desc limit $1 offset $2`,
    params,
  );
  const total = rows.length > 0 ? Number(rows[0].total) : 0;
  return {
    total,
    data: rows.map((r) =>
      toBankAccount({
        bankId: r.bank_id as number,
        userId: Number(r.user_id),
        accountHolderName: r.account_holder_name as string,
        accountNumber: r.account_number as string,
        ifsc: r.ifsc as string,
        bank: r.bank as string,
        branch: r.branch as string | null,
        isPrimary: r.is_primary as boolean,
        createdAt: r.created_at as Date,
      }),
    ),
  };
}

export async function findBank(database: Database, bankId: number): Promise<BankRow | null> {
  const [row] = await database.db.select().from(bankAccounts).where(eq(bankAccounts.bankId, bankId));
  return row ?? null;
}

/** Another account of the member with this number at this branch. */
export async function sameAccountExists(
  database: Database,
  a: { userId: number; accountNumber: string; ifsc: string },
  exceptBankId = 0,
): Promise<boolean> {
  const rows = await database.db
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

export async function hasPrimary(database: Database, userId: number): Promise<boolean> {
  const rows = await database.db
    .select({ bankId: bankAccounts.bankId })
    .from(bankAccounts)
    .where(and(eq(bankAccounts.userId, userId), eq(bankAccounts.isPrimary, true)))
    .limit(1);
  return rows.length > 0;
}

/** Unsets the member's current primary, in the transaction that sets a new one. */
export async function clearPrimary(tx: Db, userId: number): Promise<void> {
  await tx
    .update(bankAccounts)
    .set({ isPrimary: false })
    .where(and(eq(bankAccounts.userId, userId), eq(bankAccounts.isPrimary, true)));
}

/** After the primary is deleted, the member's oldest remaining account takes its place. */
export async function promoteOldest(tx: Db, userId: number): Promise<void> {
  await tx.execute(sql`update bank_accounts set is_primary = true
     where bank_id = (select min(bank_id) from bank_accounts where user_id = ${userId})`);
}
