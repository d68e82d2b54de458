import { BULK_IDS_CAP, type Approval, type approvalsApi, type ApprovalKind, type ApprovalStatus, type BulkDecision, type BulkDecisionResult } from '../../../contract/approvals.ts';
import { isoToWireDate } from '../../../contract/common.ts';
import type { ReplyOf } from '../../../contract/endpoint.ts';
import { transferBody } from '../../../contract/payouts.ts';
import { rechargeBody, withdrawalDecisionBody } from '../../../contract/wallet.ts';
import type { Db } from '../../db/client.ts';
import { audit } from '../../lib/audit.ts';
import { actorId, type Ctx } from '../../lib/context.ts';
import { AppError } from '../../lib/errors.ts';
import { isRefused, moneyContext, type MoneyRefused, type MoneyReply, type MoneyResult, type MoneyContext } from '../../lib/money/movement.ts';
import { activationBody } from '../../../contract/income.ts';
import { bankChangeRequest } from '../../../contract/banks.ts';
import { applyBankChange } from '../banks/banks.service.ts';
import { replayBankRelease } from '../bank-transfers/bank-transfers.service.ts';
import { panChangeRequest } from '../../../contract/tax.ts';
import { applyPanChange } from '../tax/pan.service.ts';
import { activateMembership } from '../income/activation.service.ts';
import { replayPlan } from '../income/plans.service.ts';
import { replayRerun } from '../income/runs/runs.service.ts';
import { replaySettings } from '../income/settings.service.ts';
import { istToday } from '../income/settings.ts';
import { afterReversal, runChunkSize } from '../income/runs/engine.ts';
import { reverseRun } from '../income/runs/reversal.ts';
import { replayBulkPayouts, transferAdmin } from '../payouts/payouts.service.ts';
import { decideWithdrawal, rechargeOrWithdraw } from '../wallet/wallet.service.ts';
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
 * Runs a stored movement through the very service function of its direct path; the payload is
 * parsed with the endpoint's own schema again, so a request can only replay what that endpoint
 * accepts.
 */
async function replay(tx: Db, ctx: MoneyContext, kind: ApprovalKind, payload: unknown, checker: Ctx): Promise<MoneyResult<MoneyReply>> {
  const { database } = checker;
  switch (kind) {
    case 'wallet_recharge':
    case 'wallet_withdrawal':
      return rechargeOrWithdraw(tx, ctx, rechargeBody.parse(payload));
    case 'admin_transfer':
    case 'pay_payout':
      return transferAdmin(tx, ctx, transferBody.parse(payload));
    case 'pay_payout_bulk':
      return replayBulkPayouts(tx, ctx, payload);
    case 'withdrawal_approval': {
      const { withdrawalId, ...decision } = payload as { withdrawalId: number };
      return decideWithdrawal(tx, ctx, Number(withdrawalId), withdrawalDecisionBody.parse(decision));
    }
    case 'membership_activation':
      return activateMembership(tx, ctx, activationBody.parse(payload));
    case 'bank_account_change':
      return applyBankChange(tx, ctx, bankChangeRequest.parse(payload));
    case 'pan_change':
      return applyPanChange(tx, ctx, panChangeRequest.parse(payload));
    case 'run_reversal': {
      const { runId, remarks } = payload as { runId: number; remarks: string };
      return afterReversal(database, Number(runId), await reverseRun(tx, ctx, { runId: Number(runId), remarks: String(remarks) }, runChunkSize(database)));
    }
    case 'plan_create':
    case 'plan_change':
      return replayPlan(tx, ctx, checker.config.bounds, payload);
    case 'settings_change':
      return replaySettings(tx, ctx, checker.config.bounds, payload);
    case 'run_rerun':
      return replayRerun(tx, checker, ctx, payload);
    case 'bank_batch_release':
      return replayBankRelease(tx, ctx, checker, payload);
  }
}

/**
 * Why a pending request can no longer be approved (issue 22), or null: its maker or its member was
 * deactivated since, or the day a compensation change was to start has come (a scheduled version
 * not approved before its day never starts; a new plan may still start on its first day).
 */
async function expiryOf(tx: Db, request: { kind: ApprovalKind; userId: number | null; makerId: number; payload: unknown }): Promise<string | null> {
  const people = await repo.liveness(tx, request.makerId, request.userId);
  if (!people.makerActive) return 'the operator who asked for it has been deactivated';
  if (request.userId !== null && !people.memberActive) return `member ${request.userId} has been deactivated`;
  const from = (request.payload as { effectiveFrom?: unknown } | null)?.effectiveFrom;
  if (typeof from === 'string' && (request.kind === 'plan_create' || request.kind === 'plan_change' || request.kind === 'settings_change')) {
    const today = await istToday(tx);
    const firstDayMayPass = request.kind === 'plan_create';
    if (from < today || (from === today && !firstDayMayPass && !(await repo.firstSettingsSave(tx, request.kind)))) {
      return `it was to take effect on ${isoToWireDate(from)} and was not approved before that day`;
    }
  }
  return null;
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
  const expired = await expiryOf(tx, claimed);
  if (expired) return expire(tx, id, checkerId, expired);
  if (makerId === checkerId) {
    throw new AppError(403, 'You asked for this movement yourself: another operator with money_approve must approve it');
  }
  if (claimed.userId === checkerId) {
    throw new AppError(403, 'You cannot approve a movement of your own wallet: another operator must do it');
  }
  const money: MoneyContext = { ...moneyContext(ctx), makerId, approved: true, approvalId: id };
  const moved = await replay(tx, money, claimed.kind, claimed.payload, ctx);
  await audit(tx, ctx, moved.audit);
  const result = (moved.body as { data: Record<string, unknown>; message: string });
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
