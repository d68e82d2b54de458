import type { z } from 'zod';
import type { BankAccount, createBankBody, updateBankBody } from '../../../contract/banks.ts';
import { audit } from '../../lib/audit.ts';
import type { Ctx } from '../../lib/context.ts';
import { AppError } from '../../lib/errors.ts';
import { requireUser } from '../users/users.service.ts';
import * as repo from './banks.repository.ts';

type CreateInput = z.output<typeof createBankBody>;
type UpdateInput = z.output<typeof updateBankBody>;

const NOT_FOUND = 'Bank account not found';
const DUPLICATE = 'This bank account (account number and IFSC) is already added for this member';

/** A bank account of a live member, or 404. */
async function requireBank(ctx: Ctx, bankId: number): Promise<repo.BankRow> {
  const row = await repo.findBank(ctx.database.db, bankId);
  if (!row) throw new AppError(404, NOT_FOUND);
  await requireUser(ctx, row.userId).catch(() => {
    throw new AppError(404, NOT_FOUND);
  });
  return row;
}

/** A live member's accounts, the primary first. */
export async function banksOfUser(ctx: Ctx, userId: number): Promise<BankAccount[]> {
  await requireUser(ctx, userId);
  return (await repo.banksOfUser(ctx.database.db, userId)).map(repo.toBankAccount);
}

export async function listBanks(ctx: Ctx, filter: { userId?: number; page: number; limit: number }): Promise<{ data: BankAccount[]; total: number }> {
  const { rows, total } = await repo.listBanks(ctx.database.db, filter);
  return { data: rows.map(repo.toBankAccount), total };
}

/** A member's first account is their primary one; a new primary replaces the old. */
export async function createBank(ctx: Ctx, input: CreateInput): Promise<BankAccount> {
  const { db } = ctx.database;
  await requireUser(ctx, input.userId);
  if (await repo.sameAccountExists(db, input)) throw new AppError(409, DUPLICATE);
  const isPrimary = input.isPrimary ?? !(await repo.hasPrimary(db, input.userId));
  const created = await db.transaction(async (tx) => {
    if (isPrimary) await repo.clearPrimary(tx, input.userId);
    const row = await repo.insertBank(tx, { ...input, branch: input.branch ?? null, isPrimary });
    await audit(tx, ctx, { action: 'create', entity: 'bank_account', entityId: row.bankId, after: row });
    return row;
  });
  return repo.toBankAccount(created);
}

export async function updateBank(ctx: Ctx, bankId: number, input: UpdateInput): Promise<BankAccount> {
  const before = await requireBank(ctx, bankId);
  const changes = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as UpdateInput;
  if (Object.keys(changes).length === 0) throw new AppError(400, 'Send at least one field to change');
  const next = { ...before, ...changes };
  if (await repo.sameAccountExists(ctx.database.db, next, before.bankId)) throw new AppError(409, DUPLICATE);
  const updated = await ctx.database.db.transaction(async (tx) => {
    if (changes.isPrimary === true && !before.isPrimary) await repo.clearPrimary(tx, before.userId);
    const row = await repo.updateBank(tx, before.bankId, changes);
    await audit(tx, ctx, { action: 'update', entity: 'bank_account', entityId: before.bankId, before, after: row });
    return row;
  });
  return repo.toBankAccount(updated);
}

/** Deleting the primary account makes the member's oldest remaining one primary. */
export async function deleteBank(ctx: Ctx, bankId: number): Promise<void> {
  const before = await requireBank(ctx, bankId);
  await ctx.database.db.transaction(async (tx) => {
    await repo.deleteBank(tx, before.bankId);
    if (before.isPrimary) await repo.promoteOldest(tx, before.userId);
    await audit(tx, ctx, { action: 'delete', entity: 'bank_account', entityId: before.bankId, before });
  });
}
