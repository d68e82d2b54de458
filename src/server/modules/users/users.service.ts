import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  BULK_IDS_MAX, tooManyToSelect, type BulkResult, type bulkStatusBody, type createUserBody, type updateUserBody, type User, type UserSort,
} from '../../../contract/users.ts';
import type { ReplyOf } from '../../../contract/endpoint.ts';
import type { usersApi } from '../../../contract/users.ts';
import type { Db } from '../../db/client.ts';
import type { users } from '../../db/schema/members.ts';
import { auditLog } from '../../db/schema/system.ts';
import { audit, auditRow } from '../../lib/audit.ts';
import type { MoneyResult } from '../../lib/money/movement.ts';
import type { Actor, Ctx } from '../../lib/context.ts';
import { AppError } from '../../lib/errors.ts';
import * as list from './member-list.repository.ts';
import * as repo from './users.repository.ts';

type CreateInput = z.output<typeof createUserBody>;
type UpdateInput = z.output<typeof updateUserBody>;

const NOT_FOUND = 'User ID not found';
/** The 404 of a member that is not there (or soft-deleted), for readers that look the member up themselves. */
export const memberNotFound = () => new AppError(404, NOT_FOUND);
/** Finding 2 of issue 13: a member editor could change an administrator's email and take the account over. */
const STAFF_ACCOUNT = 'This account signs in to the back-office, so it is managed on the Staff screen, not here';
const STAFF_NOT_DELETED = 'This account signs in to the back-office and cannot be deleted here; deactivate it on the Staff screen';

export interface UsersPage {
  users: User[];
  total: number;
}

export async function listUsers(ctx: Ctx, filter: list.UserFilter): Promise<UsersPage> {
  return list.listUsers(ctx.database, filter);
}

/** Every member id the filter matches, for "select all matching"; refused above BULK_IDS_MAX. */
export async function memberIds(ctx: Ctx, filter: list.MemberFilter): Promise<{ ids: number[]; total: number }> {
  const ids = await list.memberIds(ctx.database, filter, BULK_IDS_MAX);
  if (ids.length > BULK_IDS_MAX) {
    const { total } = await list.listUsers(ctx.database, { ...filter, sort: 'userId', page: 1, limit: 1 });
    throw new AppError(400, tooManyToSelect(total));
  }
  return { ids, total: ids.length };
}

/** One batch of the members export, by user id. */
export async function membersBatch(ctx: Ctx, filter: list.MemberFilter, afterId: number, limit: number): Promise<User[]> {
  return list.membersBatch(ctx.database, filter, afterId, limit);
}

type BulkStatusInput = z.output<typeof bulkStatusBody>;

/**
 * Issue 24: activate or deactivate members in bulk, in the caller's transaction (the route runs it
 * under the request's Idempotency-Key). Each member changed gets its own audit row; a member who
 * already has the status is reported done with a note and not touched again, so repeating a bulk
 * is harmless; staff (they sign in: managed on the Staff screen) and unknown or deleted ids are
 * reported failed with the reason, and never changed.
 */
export async function bulkSetStatus(tx: Db, actor: Actor, input: BulkStatusInput): Promise<MoneyResult<ReplyOf<typeof usersApi.bulkStatus>>> {
  const changed = new Set(await repo.setMembersStatus(tx, input.ids, input.status));
  const found = new Map((await repo.statusOf(tx, input.ids)).map((r) => [r.userId, r]));
  const word = input.status ? 'active' : 'inactive';
  const done: BulkResult['done'] = [];
  const failed: BulkResult['failed'] = [];
  for (const id of input.ids) {
    const row = found.get(id);
    if (changed.has(id)) done.push({ id });
    else if (!row || !row.live) failed.push({ id, message: NOT_FOUND });
    else if (row.canSignIn) failed.push({ id, message: STAFF_ACCOUNT });
    else done.push({ id, note: `Already ${word}` });
  }
  if (changed.size > 0) {
    const rows = [...changed].map((id) => auditRow(actor, {
      action: 'update', entity: 'user', entityId: id, before: { status: !input.status }, after: { status: input.status },
    }));
    const actorId = rows[0].actorId;
    await tx.insert(auditLog).values(rows.map((r) => ({
      ...r, actorName: actorId === null ? null : sql`(select full_name from users where user_id = ${actorId}::int8)`,
    })));
  }
  const verb = input.status ? 'activated' : 'deactivated';
  const body: BulkResult = {
    success: true,
    message: `${changed.size} ${changed.size === 1 ? 'member' : 'members'} ${verb}, ${done.length - changed.size} already ${word}, ${failed.length} not changed`,
    done,
    failed,
  };
  return {
    status: 200,
    body,
    audit: { action: input.status ? 'bulk_activate' : 'bulk_deactivate', entity: 'user', after: { ids: input.ids, changed: [...changed] } },
  };
}

/** The levels live members hold: the Level filter offers these beyond 1 to 10. */
export async function memberLevels(ctx: Ctx): Promise<number[]> {
  return repo.memberLevels(ctx.database);
}

/** The members holding a rank, newest first; an unknown rank is 404. */
export async function listUsersByRank(
  ctx: Ctx,
  filter: { rankId: number; page: number; limit: number },
): Promise<UsersPage> {
  if (!(await repo.rankExists(ctx.database.db, filter.rankId))) throw new AppError(404, 'Rank not found');
  const sort: UserSort = '-userId';
  return list.listUsers(ctx.database, { ...filter, sort });
}

/** A live member, or 404 (a soft-deleted member is gone for every reader). */
export async function requireUser(ctx: Pick<Ctx, 'database'>, userId: number): Promise<User> {
  const found = await repo.findUser(ctx.database, userId);
  if (!found) throw new AppError(404, NOT_FOUND);
  return found;
}

/**
 * A live member as the member screens read one: a staff account (one that signs in to the panel)
 * is not a member (decisions.md) and answers 404 here, like an unknown id; staff are read on the
 * Staff screen, under staff_manage.
 */
export async function requireMember(ctx: Pick<Ctx, 'database'>, userId: number): Promise<User> {
  const found = await requireUser(ctx, userId);
  if (await repo.signsIn(ctx.database.db, userId)) throw new AppError(404, NOT_FOUND);
  return found;
}

/**
 * A new account row — a member, a staff account or a self-registration: the one way any module
 * creates a user. Its id and referral code are given here; the caller's transaction does the rest.
 */
export function createAccount(tx: Db, values: repo.NewUser): Promise<typeof users.$inferSelect> {
  return repo.insertUser(tx, values);
}

/**
 * An operator adds a member (no password: members can't sign in). A referral code names the
 * referrer, and the new member sits one level below them; without one it is a level-1 member.
 */
export async function registerMember(ctx: Ctx, input: CreateInput): Promise<User> {
  const { db } = ctx.database;
  let referrer: { userId: number; level: number } | null = null;
  if (input.referralCode) {
    referrer = await repo.findReferrer(db, input.referralCode);
    if (!referrer) throw new AppError(400, 'Invalid referral code');
  }
  const taken = await repo.contactTaken(db, input);
  if (taken) throw new AppError(409, taken);
  const created = await db.transaction(async (tx) => {
    const row = await createAccount(tx, {
      fullName: input.fullName,
      dob: input.dob,
      email: input.email,
      phone: input.phone,
      whatsapp: input.whatsapp ?? null,
      image: input.image ?? null,
      referredBy: referrer?.userId ?? null,
      level: referrer ? referrer.level + 1 : 1,
    });
    await audit(tx, ctx, { action: 'create', entity: 'user', entityId: row.userId, after: row });
    return row;
  });
  return requireUser(ctx, created.userId);
}

export async function updateMember(ctx: Ctx, userId: number, input: UpdateInput): Promise<User> {
  const { db } = ctx.database;
  const before = await requireUser(ctx, userId);
  if (await repo.signsIn(db, userId)) throw new AppError(403, STAFF_ACCOUNT);
  if (input.email !== undefined || input.phone !== undefined) {
    const taken = await repo.contactTaken(db, { email: input.email, phone: input.phone }, userId);
    if (taken) throw new AppError(409, taken);
  }
  if (input.rankId != null && !(await repo.rankExists(db, input.rankId))) {
    throw new AppError(400, 'Unknown rank');
  }
  const changes = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<UpdateInput>;
  if (Object.keys(changes).length > 0) {
    await db.transaction(async (tx) => {
      // Matched as a member again: the check above ran outside this transaction.
      const after = await repo.updateMember(tx, userId, changes);
      if (!after) throw new AppError(404, NOT_FOUND);
      await audit(tx, ctx, { action: 'update', entity: 'user', entityId: userId, before, after });
    });
  }
  return requireUser(ctx, userId);
}

/**
 * Soft delete (decisions.md): the member leaves every list and answers 404, while their ledger,
 * payouts and referrals stay. Their sessions end with them (the session check skips deleted rows).
 */
export async function deleteMember(ctx: Ctx, userId: number): Promise<void> {
  if (userId === ctx.auth?.userId) throw new AppError(409, 'You cannot delete your own account');
  const before = await requireUser(ctx, userId);
  if (await repo.signsIn(ctx.database.db, userId)) throw new AppError(403, STAFF_NOT_DELETED);
  await ctx.database.db.transaction(async (tx) => {
    // Matched as a member again: the check above ran outside this transaction.
    if (!(await repo.softDeleteMember(tx, userId))) throw new AppError(404, NOT_FOUND);
    await audit(tx, ctx, { action: 'delete', entity: 'user', entityId: userId, before });
  });
}
