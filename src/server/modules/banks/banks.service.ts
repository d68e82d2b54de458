import type { z } from 'zod';
import { maskAccountNumber, type BankAccount, type createBankBody, type updateBankBody } from '../../../contract/banks.ts';
import { audit } from '../../lib/audit.ts';
import type { Ctx } from '../../lib/context.ts';
import { AppError, invalidInput } from '../../lib/errors.ts';
import { requireUser } from '../users/users.service.ts';
import * as repo from './banks.repository.ts';

type CreateInput = z.output<typeof createBankBody>;
type UpdateInput = z.output<typeof updateBankBody>;

const NOT_FOUND = 'Bank account not found';
const DUPLICATE = 'This bank account (account number and IFSC) is already added for this member';
const KEEP_PRIMARY = "A member's primary account stays primary until another account is made primary";
const CONCURRENT = "This member's accounts were changed at the same moment: please try again";

/** The duplicate refusal, on the account number field (the form marks it). */
const duplicate = () =>
  new AppError(409, DUPLICATE, { errors: [{ path: 'body.accountNumber', field: 'accountNumber', message: DUPLICATE }] });

/**
 * A unique index refused the write: the same account added twice at the same moment
 * (bank_accounts_account_uq), or two primaries set at once (bank_accounts_one_primary_uq).
 */
function refusedByIndex(err: unknown): never {
  const cause = (err as { cause?: { code?: string; constraint?: string } })?.cause ?? (err as { code?: string; constraint?: string });
  if (cause?.code !== '23505') throw err;
  if (cause.constraint === 'bank_accounts_account_uq') throw duplicate();
  throw new AppError(409, CONCURRENT);
}

/** What the audit log keeps of an account: the number masked, like on screen. */
const audited = (row: repo.BankRow) => ({ ...row, accountNumber: maskAccountNumber(row.accountNumber) });

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

/**
 * A member always has exactly one primary account while they have any: their first account is
 * primary whatever was asked, and a new primary replaces the old one in the same transaction.
 */
export async function createBank(ctx: Ctx, input: CreateInput): Promise<BankAccount> {
  await requireUser(ctx, input.userId);
  const created = await ctx.database.db
    .transaction(async (tx) => {
      if (await repo.sameAccountExists(tx, input)) throw duplicate();
      const isPrimary = input.isPrimary === true || !(await repo.hasPrimary(tx, input.userId));
      if (isPrimary) await repo.clearPrimary(tx, input.userId);
      const row = await repo.insertBank(tx, { ...input, branch: input.branch ?? null, isPrimary });
      await audit(tx, ctx, { action: 'create', entity: 'bank_account', entityId: row.bankId, after: audited(row) });
      return row;
    })
    .catch(refusedByIndex);
  return repo.toBankAccount(created);
}

/** An account's details, or making it primary; the primary can't be unset (make another primary). */
export async function updateBank(ctx: Ctx, bankId: number, input: UpdateInput): Promise<BankAccount> {
  const before = await requireBank(ctx, bankId);
  const changes = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as UpdateInput;
  if (Object.keys(changes).length === 0) throw new AppError(400, 'Send at least one field to change');
  if (changes.isPrimary === false && before.isPrimary) {
    throw invalidInput([{ path: 'body.isPrimary', field: 'isPrimary', message: KEEP_PRIMARY }]);
  }
  const updated = await ctx.database.db
    .transaction(async (tx) => {
      if (await repo.sameAccountExists(tx, { ...before, ...changes }, before.bankId)) throw duplicate();
      if (changes.isPrimary === true && !before.isPrimary) await repo.clearPrimary(tx, before.userId);
      const row = await repo.updateBank(tx, before.bankId, changes);
      await audit(tx, ctx, { action: 'update', entity: 'bank_account', entityId: before.bankId, before: audited(before), after: audited(row) });
      return row;
    })
    .catch(refusedByIndex);
  return repo.toBankAccount(updated);
}

/** Deleting the primary account makes the member's oldest remaining one primary (audited too). */
export async function deleteBank(ctx: Ctx, bankId: number): Promise<void> {
  const before = await requireBank(ctx, bankId);
  await ctx.database.db.transaction(async (tx) => {
    await repo.deleteBank(tx, before.bankId);
    await audit(tx, ctx, { action: 'delete', entity: 'bank_account', entityId: before.bankId, before: audited(before) });
    if (!before.isPrimary) return;
    const promoted = await repo.promoteOldest(tx, before.userId);
    if (promoted) {
      await audit(tx, ctx, {
        action: 'update', entity: 'bank_account', entityId: promoted.bankId,
        before: audited({ ...promoted, isPrimary: false }), after: audited(promoted),
      });
    }
  });
}
