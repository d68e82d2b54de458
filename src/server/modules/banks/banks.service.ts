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

/** What a POST or PUT answers: the account (201 or 200) or, for a change of where money goes, the filed request (202). */
export interface BankAnswer {
  status: 200 | 201 | 202;
  body: unknown;
}

const PRIMARY_AWAITS = 'awaits approval by a second operator on the Approvals screen; payouts go to the current primary account until then';

/**
 * A member always has exactly one primary account while they have any. Their first account is
 * primary at once, whatever was asked (no money was going anywhere by bank). A new account asked
 * to be primary over an existing primary is added as it is, and its becoming primary is filed for
 * a second operator (202): gathers pay the primary, so choosing it is choosing where money goes.
 */
export async function createBank(ctx: Ctx, input: CreateInput): Promise<BankAnswer> {
  await requireMember(ctx, input.userId);
  const { row, primaryAsked } = await ctx.database.db
    .transaction(async (tx) => {
      if (await repo.sameAccountExists(tx, input)) throw duplicate();
      const first = (await repo.primaryOf(tx, input.userId)) === null;
      const created = await repo.insertBank(tx, { ...input, branch: input.branch ?? null, isPrimary: first });
      await audit(tx, ctx, { action: 'create', entity: 'bank_account', entityId: created.bankId, after: audited(created) });
      return { row: created, primaryAsked: input.isPrimary === true && !first };
    })
    .catch(refusedByIndex);
  if (!primaryAsked) return { status: 201, body: { success: true, message: 'Bank account created successfully', data: repo.toBankAccount(row) } };
  const filed = await fileChange(ctx, row, { isPrimary: true });
  return { status: 202, body: { success: true, message: `Bank account created; making it primary ${PRIMARY_AWAITS}`, data: filed.data } };
}

/** Whether the change gives the account another number or IFSC. */
const newNumber = (before: repo.BankRow, changes: UpdateInput) =>
  (changes.accountNumber !== undefined && changes.accountNumber !== before.accountNumber)
  || (changes.ifsc !== undefined && changes.ifsc !== before.ifsc);

/** Whether money would go elsewhere: another number or IFSC, or this account made primary (gathers pay the primary). */
const movesMoney = (before: repo.BankRow, changes: UpdateInput) =>
  newNumber(before, changes) || (changes.isPrimary === true && !before.isPrimary);

/** Writes a change to an account in `tx` (the primary moves with it), refusing a duplicate. */
async function writeChange(tx: Db, before: repo.BankRow, changes: UpdateInput): Promise<repo.BankRow> {
  if (await repo.sameAccountExists(tx, { ...before, ...changes }, before.bankId)) throw duplicate();
  if (changes.isPrimary === true && !before.isPrimary) await repo.clearPrimary(tx, before.userId);
  return repo.updateBank(tx, before.bankId, changes);
}

/**
 * An account's details, or making it primary; the primary can't be unset (make another primary).
 * A new account number or IFSC, and making an account primary, are four-eyes changes (issue 22):
 * filed for a second operator with money_approve (202), who sees the whole old and new numbers
 * on the Approvals screen; the holder's name, bank and branch change at once.
 */
export async function updateBank(ctx: Ctx, bankId: number, input: UpdateInput): Promise<BankAnswer> {
  const before = await requireBank(ctx, bankId);
  const changes = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as UpdateInput;
  if (Object.keys(changes).length === 0) throw new AppError(400, 'Send at least one field to change');
  if (changes.isPrimary === false && before.isPrimary) {
    throw invalidInput([{ path: 'body.isPrimary', field: 'isPrimary', message: KEEP_PRIMARY }]);
  }
  if (await repo.signsIn(ctx.database.db, before.userId)) throw staffAccount(before.userId);
  if (movesMoney(before, changes)) {
    const filed = await fileChange(ctx, before, changes);
    return { status: 202, body: { success: true, message: newNumber(before, changes) ? AWAITS_APPROVAL : `Making this account primary ${PRIMARY_AWAITS}`, data: filed.data } };
  }
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

/** Files a change of where money goes: one pending request per account, nothing changes yet. */
async function fileChange(ctx: Ctx, before: repo.BankRow, changes: UpdateInput): Promise<{ data: unknown }> {
  const result = await ctx.database.db.transaction(async (tx) => {
    if (!(await repo.lockBank(tx, before.bankId))) throw new AppError(404, NOT_FOUND);
    const pending = await repo.pendingChange(tx, before.bankId);
    if (pending !== null) throw new AppError(409, `A change of this bank account already awaits approval (request ${pending})`);
    if (await repo.sameAccountExists(tx, { ...before, ...changes }, before.bankId)) throw duplicate();
    const current = changes.isPrimary === true && !before.isPrimary ? await repo.primaryOf(tx, before.userId) : undefined;
    const request: BankChangeRequest = {
      bankId: before.bankId,
      changes,
      before: { accountHolderName: before.accountHolderName, accountNumber: before.accountNumber, ifsc: before.ifsc, bank: before.bank },
      ...(current === undefined ? {} : {
        primaryBefore: current && { bankId: current.bankId, accountNumber: current.accountNumber, ifsc: current.ifsc, bank: current.bank },
      }),
    };
    const held = await holdForApproval(tx, moneyContext(ctx), { kind: 'bank_account_change', userId: before.userId, amountPaise: 0, payload: request });
    // The request's audit row shows the numbers masked, like every other bank account row in the log.
    await audit(tx, ctx, {
      ...held.audit,
      after: {
        kind: 'bank_account_change', userId: before.userId, bankId: before.bankId, status: 'pending',
        before: { accountNumber: maskAccountNumber(before.accountNumber), ifsc: before.ifsc },
        after: { accountNumber: maskAccountNumber(changes.accountNumber ?? before.accountNumber), ifsc: changes.ifsc ?? before.ifsc },
        ...(current === undefined ? {} : {
          primary: { from: current && { bankId: current.bankId, accountNumber: maskAccountNumber(current.accountNumber) }, to: before.bankId },
        }),
      },
    });
    return held;
  });
  return { data: (result.body as { data: unknown }).data };
}

/**
 * A checker approves a filed change (approvals.service replays it): applied only if the
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
  if (request.primaryBefore !== undefined) {
    const primary = await repo.primaryOf(tx, current.userId);
    if ((primary?.bankId ?? null) !== (request.primaryBefore?.bankId ?? null)) {
      throw new AppError(409, 'The member\u2019s primary account was changed after the request was filed; reject the request and file it again');
    }
  }
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

/**
 * A member's primary account is not deleted: gathers pay it, and deleting it would let another
 * account (or the next one added) take its place without a second operator. Make another account
 * primary first (four eyes), or change this one's details.
 */
export async function deleteBank(ctx: Ctx, bankId: number): Promise<void> {
  const before = await requireBank(ctx, bankId);
  if (before.isPrimary) throw new AppError(409, KEEP_PRIMARY_ACCOUNT);
  await ctx.database.db.transaction(async (tx) => {
    // Locked and read again: it may have been made primary since (an approval).
    const current = await repo.lockBank(tx, before.bankId);
    if (!current) throw new AppError(404, NOT_FOUND);
    if (current.isPrimary) throw new AppError(409, KEEP_PRIMARY_ACCOUNT);
    await repo.deleteBank(tx, before.bankId);
    await audit(tx, ctx, { action: 'delete', entity: 'bank_account', entityId: before.bankId, before: audited(current) });
  });
}

const KEEP_PRIMARY_ACCOUNT =
  "A member's primary account can't be deleted: make another account primary first (a second operator approves it), or change this account's details";
