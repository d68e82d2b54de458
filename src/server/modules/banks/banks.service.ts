import type { z } from 'zod';
import {
  maskAccountNumber, type BankAccount, type BankChangeRequest, type banksApi, type createBankBody, type updateBankBody,
} from '../../../contract/banks.ts';
import type { ReplyOf } from '../../../contract/endpoint.ts';
import type { Db } from '../../db/client.ts';
import { audit } from '../../lib/audit.ts';
import type { Ctx } from '../../lib/context.ts';
import { AppError, invalidInput } from '../../lib/errors.ts';
import { moneyContext, type MoneyResult, type MoneyContext } from '../../lib/money/movement.ts';
import { holdForApproval } from '../../lib/money/four-eyes.ts';
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

/** Bank accounts belong to members only (issue 22): an account that signs in to the panel is staff. */
const staffAccount = (userId: number) =>
  new AppError(400, `Bank accounts belong to members: user ${userId} is a staff account that signs in to this panel`);

/** A live member (404 otherwise) who is not staff (400). */
async function requireMember(ctx: Ctx, userId: number): Promise<void> {
  await requireUser(ctx, userId);
  if (await repo.signsIn(ctx.database.db, userId)) throw staffAccount(userId);
}

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

/** One batch of the bank accounts export (account numbers masked as on screen), by bank id. */
export async function banksBatch(ctx: Ctx, afterId: number, limit: number): Promise<(BankAccount & { memberName: string })[]> {
  return (await repo.banksBatch(ctx.database.db, afterId, limit)).map((r) => ({
    ...repo.toBankAccount(r), accountNumber: maskAccountNumber(r.accountNumber), memberName: r.memberName,
  }));
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
  await requireMember(ctx, input.userId);
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

/** What a PUT answers: the changed account (200) or, for a new number or IFSC, the filed request (202). */
export interface BankUpdateAnswer {
  status: 200 | 202;
  body: unknown;
}

/** Whether the change gives the account another number or IFSC: money would go elsewhere. */
const movesMoney = (before: repo.BankRow, changes: UpdateInput) =>
  (changes.accountNumber !== undefined && changes.accountNumber !== before.accountNumber)
  || (changes.ifsc !== undefined && changes.ifsc !== before.ifsc);

/** Writes a change to an account in `tx` (the primary moves with it), refusing a duplicate. */
async function writeChange(tx: Db, before: repo.BankRow, changes: UpdateInput): Promise<repo.BankRow> {
  if (await repo.sameAccountExists(tx, { ...before, ...changes }, before.bankId)) throw duplicate();
  if (changes.isPrimary === true && !before.isPrimary) await repo.clearPrimary(tx, before.userId);
  return repo.updateBank(tx, before.bankId, changes);
}

/**
 * An account's details, or making it primary; the primary can't be unset (make another primary).
 * A new account number or IFSC is a four-eyes change (issue 22): it is filed for a second
 * operator with money_approve (202), who sees the whole old and new numbers on the Approvals
 * screen; the holder's name, bank, branch and the primary flag change at once.
 */
export async function updateBank(ctx: Ctx, bankId: number, input: UpdateInput): Promise<BankUpdateAnswer> {
  const before = await requireBank(ctx, bankId);
  const changes = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as UpdateInput;
  if (Object.keys(changes).length === 0) throw new AppError(400, 'Send at least one field to change');
  if (changes.isPrimary === false && before.isPrimary) {
    throw invalidInput([{ path: 'body.isPrimary', field: 'isPrimary', message: KEEP_PRIMARY }]);
  }
  if (await repo.signsIn(ctx.database.db, before.userId)) throw staffAccount(before.userId);
  if (movesMoney(before, changes)) return fileNumberChange(ctx, before, changes);
  const updated = await ctx.database.db
    .transaction(async (tx) => {
      const row = await writeChange(tx, before, changes);
      await audit(tx, ctx, { action: 'update', entity: 'bank_account', entityId: before.bankId, before: audited(before), after: audited(row) });
      return row;
    })
    .catch(refusedByIndex);
  return { status: 200, body: { success: true, message: 'Bank account updated successfully', data: repo.toBankAccount(updated) } };
}

const AWAITS_APPROVAL = 'The new account number awaits approval by a second operator on the Approvals screen; the account keeps its current number until then';

/** Files a number or IFSC change: one pending request per account, nothing changes yet. */
async function fileNumberChange(ctx: Ctx, before: repo.BankRow, changes: UpdateInput): Promise<BankUpdateAnswer> {
  const result = await ctx.database.db.transaction(async (tx) => {
    if (!(await repo.lockBank(tx, before.bankId))) throw new AppError(404, NOT_FOUND);
    const pending = await repo.pendingChange(tx, before.bankId);
    if (pending !== null) throw new AppError(409, `A change of this bank account already awaits approval (request ${pending})`);
    if (await repo.sameAccountExists(tx, { ...before, ...changes }, before.bankId)) throw duplicate();
    const request: BankChangeRequest = {
      bankId: before.bankId,
      changes,
      before: { accountHolderName: before.accountHolderName, accountNumber: before.accountNumber, ifsc: before.ifsc, bank: before.bank },
    };
    const held = await holdForApproval(tx, moneyContext(ctx), { kind: 'bank_account_change', userId: before.userId, amountPaise: 0, payload: request });
    // The request's audit row shows the numbers masked, like every other bank account row in the log.
    await audit(tx, ctx, {
      ...held.audit,
      after: {
        kind: 'bank_account_change', userId: before.userId, bankId: before.bankId, status: 'pending',
        before: { accountNumber: maskAccountNumber(before.accountNumber), ifsc: before.ifsc },
        after: { accountNumber: maskAccountNumber(changes.accountNumber ?? before.accountNumber), ifsc: changes.ifsc ?? before.ifsc },
      },
    });
    return held;
  });
  const body = result.body as { data: unknown };
  return { status: 202, body: { success: true, message: AWAITS_APPROVAL, data: body.data } };
}

/**
 * A checker approves a filed number change (approvals.service replays it): applied only if the
 * account still has the number and IFSC it had when filed. The audit row keeps the whole old and
 * new numbers: this is the record of who changed where a member's money goes.
 */
export async function applyBankChange(tx: Db, money: MoneyContext, request: BankChangeRequest): Promise<MoneyResult<ReplyOf<typeof banksApi.update>>> {
  const current = await repo.lockBank(tx, request.bankId);
  if (!current) throw new AppError(404, `${NOT_FOUND}: it was deleted after the change was filed; reject the request`);
  if (current.accountNumber !== request.before.accountNumber || current.ifsc !== request.before.ifsc) {
    throw new AppError(409, 'This bank account was changed after the request was filed; reject the request and file the change again');
  }
  if (money.actorId === current.userId) throw new AppError(403, 'You cannot approve a change of your own bank account');
  const row = await writeChange(tx, current, request.changes).catch(refusedByIndex);
  const data = repo.toBankAccount(row);
  return {
    status: 200,
    body: { success: true, message: 'Bank account updated successfully', data },
    audit: {
      action: 'update', entity: 'bank_account', entityId: current.bankId,
      before: current, after: { ...row, makerId: money.makerId },
    },
  };
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
