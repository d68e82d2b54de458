import { BULK_IDS_CAP, type Approval, type approvalsApi, type ApprovalKind, type ApprovalStatus, type BulkDecision, type BulkDecisionResult } from '../../../contract/approvals.ts';
import type { ReplyOf } from '../../../contract/endpoint.ts';
import type { Db } from '../../db/client.ts';
import { audit } from '../../lib/audit.ts';
import { actorId, type Ctx } from '../../lib/context.ts';
import { AppError } from '../../lib/errors.ts';
import { isRefused, moneyContext, type MoneyRefused, type MovementReply, type MoneyResult, type MoneyContext } from '../../lib/money/movement.ts';
import { countLast } from '../../lib/money/four-eyes.ts';
import { MOVEMENTS } from '../../lib/money/movements.ts';
import * as repo from './approvals.repository.ts';

export function listApprovals(ctx: Ctx, input: { status?: ApprovalStatus; sort: repo.ApprovalSort; page: number; limit: number }) {
  return repo.listApprovals(ctx.database.db, input.status, input.sort, input.page, input.limit);
}

/** "My requests" (issue 24): only the caller's own, whatever their permissions. */
export function listMyRequests(ctx: Ctx, input: { status?: ApprovalStatus; page: number; limit: number }) {
  return repo.listByMaker(ctx.database.db, actorId(ctx), input.status, input.page, input.limit);
}

/** The sidebar's badge: requests waiting for this checker's decision. */
export function pendingCount(ctx: Ctx): Promise<number> {
  return repo.pendingFor(ctx.database.db, actorId(ctx));
}

/** "Select all matching": the ids of every request of the status, capped at BULK_IDS_CAP. */
export async function approvalIds(ctx: Ctx, status: ApprovalStatus | undefined) {
  const { ids, total } = await repo.idsOf(ctx.database.db, status, BULK_IDS_CAP);
  return { ids, total, capped: total > ids.length };
}

export function approvalsBatch(ctx: Ctx, status: ApprovalStatus | undefined, beforeId: number | null, limit: number) {
  return repo.approvalsBatch(ctx.database.db, status, beforeId, limit);
}

/** One batch of "My requests" as CSV: only the caller's own. */
export function myRequestsBatch(ctx: Ctx, status: ApprovalStatus | undefined, beforeId: number | null, limit: number) {
  return repo.approvalsBatch(ctx.database.db, status, beforeId, limit, actorId(ctx));
}

/**
 * Approve or reject many requests (issue 24). Each is decided exactly as one decision is
 * (approveRequest / rejectRequest: never one's own request or wallet, a reason for a rejection,
 * expiry, the movement's own limits), each in its own savepoint of the bulk call's transaction with
 * its own audit row, so one refusal rolls back that request alone. A request already decided the
 * same way (a repeated bulk) is reported as done before, never decided twice.
 */
export async function decideMany(tx: Db, ctx: Ctx, body: BulkDecision): Promise<MoneyResult<ReplyOf<typeof approvalsApi.bulk>>> {
  const done: BulkDecisionResult['done'] = [];
  const failed: BulkDecisionResult['failed'] = [];
  const after: (() => void)[] = [];
  const wanted = body.action === 'approve' ? 'approved' : 'rejected';
  for (const id of body.ids) {
    try {
      const outcome = await tx.transaction(async (sp) => {
        const result = body.action === 'approve'
          ? await approveRequest(sp, ctx, id, body.remarks)
          : await rejectRequest(sp, ctx, id, body.remarks);
        await audit(sp, ctx, result.audit);
        return result;
      });
      if (isRefused(outcome)) {
        failed.push({ id, message: outcome.body.message });
        continue;
      }
      if (outcome.afterCommit) after.push(outcome.afterCommit);
      done.push({ id });
    } catch (err) {
      if (!(err instanceof AppError) || err.statusCode >= 500) throw err;
      const existing = err.statusCode === 409 ? await repo.approvalById(tx, id) : null;
      if (existing && existing.status === wanted) done.push({ id, note: `Already ${wanted}` });
      else failed.push({ id, message: err.message });
    }
  }
  const verb = body.action === 'approve' ? 'approved' : 'rejected';
  return {
    status: 200,
    afterCommit: after.length ? () => after.forEach((f) => f()) : undefined,
    body: {
      success: true,
      message: `${done.length} ${done.length === 1 ? 'request' : 'requests'} ${verb}, ${failed.length} not`,
      data: { done, failed },
    },
    audit: {
      action: 'money_requests_bulk_decided',
      entity: 'money_request',
      entityId: body.ids.length === 1 ? body.ids[0] : null,
      after: { action: body.action, ids: body.ids, done: done.map((d) => d.id), failed: failed.map((f) => f.id) },
    },
  };
}

export async function getApproval(ctx: Ctx, id: number): Promise<Approval> {
  const found = await repo.approvalById(ctx.database.db, id);
  if (!found) throw new AppError(404, `Approval request ${id} not found`);
  return found;
}

/**
 * Runs a stored movement through its movement (lib/money/movements.ts): the payload is parsed with
 * the movement's own input schema and replayed by the very service function of its direct path,
 * so a request can only replay what that endpoint accepts.
 */
function replay(tx: Db, money: MoneyContext, kind: ApprovalKind, payload: unknown, checker: Ctx): Promise<MoneyResult<MovementReply>> {
  const movement = MOVEMENTS[kind];
  return movement.execute(tx, money, movement.input.parse(payload), checker);
}

/**
 * Why a pending request can no longer be approved (issue 22), or null: its maker or its member was
 * deactivated since, its maker no longer holds the permission its movement's route requires (a
 * role changed or taken away: what they could not file now is not approved either), or what its
 * movement says (a compensation change whose day has come: a
 * scheduled version not approved before its day never starts).
 */
async function expiryOf(tx: Db, request: { kind: ApprovalKind; userId: number | null; makerId: number; payload: unknown }): Promise<string | null> {
  const movement = MOVEMENTS[request.kind];
  const people = await repo.liveness(tx, request.makerId, request.userId, movement.permission);
  if (!people.makerActive) return 'the operator who asked for it has been deactivated';
  if (!people.makerHolds) return `the operator who asked for it no longer holds the ${movement.permission} permission`;
  if (request.userId !== null && !people.memberActive) return `member ${request.userId} has been deactivated`;
  return (await movement.expiry?.(tx, request.payload)) ?? null;
}

/** Who decided what, for the audit log: both names, as they were at the time of the decision. */
function people(a: Approval) {
  return { makerId: a.makerId, makerName: a.makerName, checkerId: a.checkerId, checkerName: a.checkerName };
}

async function refuseDecided(tx: Db, id: number): Promise<never> {
  const existing = await repo.approvalById(tx, id);
  if (!existing) throw new AppError(404, `Approval request ${id} not found`);
  throw new AppError(409, `Approval request ${id} has already been ${existing.status}`);
}

/**
 * POST /approvals/:id/approve. The guarded UPDATE claims the request, so of two checkers at once
 * one wins and the other gets 409; the movement then runs in the same transaction, and if it is
 * refused (balance, payout already paid, daily limit) everything rolls back and the request stays
 * pending.
 */
export async function approveRequest(tx: Db, ctx: Ctx, id: number, remarks: string | undefined): Promise<MoneyResult<ReplyOf<typeof approvalsApi.approve>>> {
  const checkerId = actorId(ctx);
  const claimed = await repo.claimPending(tx, id, { status: 'approved', checkerId, remarks: remarks ?? null });
  if (!claimed) return refuseDecided(tx, id);
  const { makerId } = claimed;
  // Who may decide comes first: the maker cannot close their own request either, not even as expired.
  if (makerId === checkerId) {
    throw new AppError(403, 'You asked for this movement yourself: another operator with money_approve must approve it');
  }
  if (claimed.userId === checkerId) {
    throw new AppError(403, 'You cannot approve a movement of your own wallet: another operator must do it');
  }
  const expired = await expiryOf(tx, claimed);
  if (expired) return expire(tx, id, checkerId, expired);
  const money: MoneyContext = { ...moneyContext(ctx), makerId, approved: true, approvalId: id };
  const moved = await replay(tx, money, claimed.kind, claimed.payload, ctx);
  // A movement refuses by throwing (everything rolls back, the request stays pending).
  if (isRefused(moved)) throw new AppError(moved.status, moved.body.message);
  await countLast(tx, moved.dailyCount);
  await audit(tx, ctx, moved.audit);
  const result = moved.body;
  await repo.recordResult(tx, id, result.data);
  const data = (await repo.approvalById(tx, id))!;
  return {
    status: 200,
    afterCommit: moved.afterCommit,
    body: { success: true, message: `Request approved: ${result.message}`, data: { ...data, result: result.data } },
    audit: {
      action: 'money_request_approved',
      entity: 'money_request',
      entityId: id,
      before: { status: 'pending', kind: data.kind, userId: data.userId, amount: data.amount, makerId: data.makerId, makerName: data.makerName },
      after: { status: 'approved', kind: data.kind, userId: data.userId, amount: data.amount, ...people(data), result: result.data },
    },
  };
}

/**
 * A request that can no longer be approved turns 'expired' (kept, with why), and the checker is
 * answered 409: the answer is stored like any other, so nothing moves and a retry answers the same.
 */
async function expire(tx: Db, id: number, checkerId: number, why: string): Promise<MoneyRefused> {
  const message = `Approval request ${id} has expired: ${why}. Nothing moved`;
  await repo.markExpired(tx, id, checkerId, message);
  const data = (await repo.approvalById(tx, id))!;
  return {
    status: 409,
    body: { success: false, message },
    audit: {
      action: 'money_request_expired', entity: 'money_request', entityId: id,
      before: { status: 'pending', kind: data.kind, userId: data.userId, amount: data.amount, makerId: data.makerId, makerName: data.makerName },
      after: { status: 'expired', reason: why },
    },
  };
}

/** POST /approvals/:id/reject: nothing moves. The maker may withdraw their own request this way. */
export async function rejectRequest(tx: Db, ctx: Ctx, id: number, remarks: string): Promise<MoneyResult<ReplyOf<typeof approvalsApi.reject>>> {
  const claimed = await repo.claimPending(tx, id, { status: 'rejected', checkerId: actorId(ctx), remarks });
  if (!claimed) return refuseDecided(tx, id);
  const data = (await repo.approvalById(tx, id))!;
  return {
    status: 200,
    body: { success: true, message: 'Request rejected: no money moved', data: { ...data, result: null } },
    audit: {
      action: 'money_request_rejected',
      entity: 'money_request',
      entityId: id,
      before: { status: 'pending', kind: data.kind, userId: data.userId, amount: data.amount, makerId: data.makerId, makerName: data.makerName },
      after: { status: 'rejected', kind: data.kind, userId: data.userId, amount: data.amount, ...people(data), remarks },
    },
  };
}
