import { and, count, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { paiseToRupees } from '../../../contract/common.ts';
import { ADMIN_ROLE, type PermissionName } from '../../../contract/permissions.ts';
import type { Approval, APPROVAL_SORTS, ApprovalKind, ApprovalStatus } from '../../../contract/approvals.ts';
import type { SortValue } from '../../../contract/common.ts';
import { orderBy } from '../../lib/order.ts';
import { rowsOf, type Db } from '../../db/client.ts';
import { iso } from '../../db/rows.ts';
import { users } from '../../db/schema/members.ts';
import { moneyRequests } from '../../db/schema/money.ts';

const maker = alias(users, 'mk');
const checker = alias(users, 'ck');
const r = moneyRequests;

/** A request with the names it shows: the member's, the maker's and the checker's (an operator since deleted shows their id). */
const selectApprovals = (db: Db) =>
  db.select({
    request: r,
    userName: users.fullName,
    makerName: sql<string>`coalesce(${maker.fullName}, 'Operator ' || ${r.makerId})`,
    checkerName: sql<string | null>`case when ${r.checkerId} is null then null else coalesce(${checker.fullName}, 'Operator ' || ${r.checkerId}) end`,
  })
    .from(r)
    .leftJoin(users, eq(users.userId, r.userId))
    .leftJoin(maker, eq(maker.userId, r.makerId))
    .leftJoin(checker, eq(checker.userId, r.checkerId));

type ApprovalRow = Awaited<ReturnType<typeof selectApprovals>>[number];

/** The payout or withdrawal request a stored payload names, when it names one. */
function payloadId(payload: unknown, field: 'payoutId' | 'withdrawalId'): number | null {
  const value = (payload as Record<string, unknown> | null)?.[field];
  return value === undefined || value === null ? null : Number(value);
}

/** What the payload shows the checker (its `details`), when it has any. */
function detailsOf(payload: unknown): Record<string, unknown> | null {
  const details = (payload as Record<string, unknown> | null)?.details;
  return details && typeof details === 'object' && !Array.isArray(details) ? (details as Record<string, unknown>) : null;
}

function toApproval({ request, userName, makerName, checkerName }: ApprovalRow): Approval {
  return {
    id: request.id,
    kind: request.kind as ApprovalKind,
    userId: request.userId,
    userName,
    amount: paiseToRupees(request.amountPaise),
    status: request.status,
    makerId: request.makerId,
    makerName,
    checkerId: request.checkerId,
    checkerName,
    remarks: request.remarks,
    payoutId: payloadId(request.payload, 'payoutId'),
    withdrawalId: payloadId(request.payload, 'withdrawalId'),
    details: request.kind === 'bank_account_change' ? (request.payload as Record<string, unknown>) : detailsOf(request.payload),
    createdAt: iso(request.createdAt),
    decidedAt: request.decidedAt === null ? null : iso(request.decidedAt),
  };
}

export async function approvalById(db: Db, id: number): Promise<Approval | null> {
  const [row] = await selectApprovals(db).where(eq(r.id, id));
  return row ? toApproval(row) : null;
}

export type ApprovalSort = SortValue<(typeof APPROVAL_SORTS)[number]>;

/**
 * The queue: one status in the chosen order (newest first by default), or every request with the
 * pending ones first. Ties are broken by id, so pages never repeat or skip a request.
 */
export async function listApprovals(db: Db, status: ApprovalStatus | undefined, sort: ApprovalSort, page: number, limit: number) {
  const where = status ? eq(r.status, status) : undefined;
  const sorted = orderBy(sort, { createdAt: r.createdAt, amount: r.amountPaise, kind: r.kind }, r.id);
  const order = status ? sorted : [sql`(${r.status} = 'pending') desc`, ...sorted];
  const [rows, [counted]] = await Promise.all([
    selectApprovals(db).where(where).orderBy(...order).limit(limit).offset((page - 1) * limit),
    db.select({ n: count() }).from(r).where(where),
  ]);
  return { data: rows.map(toApproval), total: counted.n };
}

/**
 * Claims a pending request for a decision: the guarded UPDATE lets one of two checkers at once
 * through. Null when the request is not pending (or does not exist).
 */
export async function claimPending(
  db: Db, id: number, decision: { status: 'approved' | 'rejected' | 'expired'; checkerId: number; remarks: string | null },
) {
  const remarks = decision.status === 'approved' ? sql`coalesce(${decision.remarks}, ${r.remarks})` : decision.remarks;
  const [claimed] = await db.update(r)
    .set({ status: decision.status, checkerId: decision.checkerId, decidedAt: sql`now()`, remarks })
    .where(and(eq(r.id, id), eq(r.status, 'pending')))
    .returning({ kind: r.kind, userId: r.userId, makerId: r.makerId, payload: r.payload });
  return claimed ? { ...claimed, kind: claimed.kind as ApprovalKind } : null;
}

/** What the movement answered when it ran. */
export async function recordResult(db: Db, id: number, result: Record<string, unknown>) {
  await db.update(r).set({ result }).where(eq(r.id, id));
}

/** Whether the maker and the member (when there is one) are still live and active. */
/** Whether the maker and the member are still live, and whether the maker still holds the permission. */
type LivenessRow = { maker_active: boolean; member_active: boolean; maker_holds: boolean };

/**
 * Whether a request's maker is still an active account holding `permission` (the one its direct
 * path's route requires: the Administrator role holds every permission, another role those of its
 * switched-on role_permissions while the role is on, as the session guard grants them), and whether
 * its member, if any, is still active: one statement.
 */
export async function liveness(db: Db, makerId: number, userId: number | null, permission: PermissionName) {
  const [row] = rowsOf<LivenessRow>(await db.execute(sql`
    select exists (select 1 from users where user_id = ${makerId} and status and deleted_at is null) as maker_active,
           ${userId === null ? sql`true` : sql`exists (select 1 from users where user_id = ${userId} and status and deleted_at is null)`} as member_active,
           exists (
             select 1 from users u join roles r on r.role_id = u.role_id
              where u.user_id = ${makerId}
                and (r.name = ${ADMIN_ROLE}
                     or (r.status and exists (select 1 from role_permissions rp join permissions p on p.permission_id = any(rp.permission_ids)
                                               where rp.role_id = u.role_id and rp.status and p.name = ${permission})))) as maker_holds`));
  return { makerActive: Boolean(row.maker_active), memberActive: Boolean(row.member_active), makerHolds: Boolean(row.maker_holds) };
}

/** An approval that found the request expired: it stays so, with why, decided by the checker who tried. */
export async function markExpired(db: Db, id: number, checkerId: number, remarks: string) {
  await db.update(r).set({ status: 'expired', checkerId, decidedAt: sql`now()`, remarks }).where(eq(r.id, id));
}

/**
 * "My requests" (issue 24): one maker's requests, newest first. Read from money_requests_maker_idx
 * (maker_id, created_at): a maker's own requests, never a scan of the queue.
 */
export async function listByMaker(db: Db, makerId: number, status: ApprovalStatus | undefined, page: number, limit: number) {
  const where = and(eq(r.makerId, makerId), status ? eq(r.status, status) : undefined);
  const [rows, [counted]] = await Promise.all([
    selectApprovals(db).where(where).orderBy(sql`${r.createdAt} desc`, sql`${r.id} desc`).limit(limit).offset((page - 1) * limit),
    db.select({ n: count() }).from(r).where(where),
  ]);
  return { data: rows.map(toApproval), total: counted.n };
}

/**
 * How many pending requests this checker may decide: not filed by them, not moving their own
 * wallet. Pending requests are few (a decision takes a request out of the range), and
 * money_requests_status_idx (status, created_at, id) reads just the pending range, so the count
 * stays cheap however many decided requests pile up behind it.
 */
export async function pendingFor(db: Db, checkerId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(r)
    .where(and(eq(r.status, 'pending'), sql`${r.makerId} <> ${checkerId}`, sql`${r.userId} is distinct from ${checkerId}`));
  return row.n;
}

/** The ids of a status's requests, oldest first (the order they wait in), at most `cap`; and how many there are. */
export async function idsOf(db: Db, status: ApprovalStatus | undefined, cap: number) {
  const where = status ? eq(r.status, status) : undefined;
  const [rows, [counted]] = await Promise.all([
    db.select({ id: r.id }).from(r).where(where).orderBy(r.createdAt, r.id).limit(cap),
    db.select({ n: count() }).from(r).where(where),
  ]);
  return { ids: rows.map((row) => row.id), total: counted.n };
}

/**
 * One batch of the CSV: requests of the status (or all) with ids below `beforeId`, newest id first;
 * with `makerId`, only that maker's ("My requests": money_requests_maker_idx reads just theirs).
 */
export async function approvalsBatch(db: Db, status: ApprovalStatus | undefined, beforeId: number | null, limit: number, makerId?: number) {
  const rows = await selectApprovals(db)
    .where(and(
      makerId === undefined ? undefined : eq(r.makerId, makerId),
      status ? eq(r.status, status) : undefined,
      beforeId === null ? undefined : sql`${r.id} < ${beforeId}`,
    ))
    .orderBy(sql`${r.id} desc`)
    .limit(limit);
  return rows.map(toApproval);
}
