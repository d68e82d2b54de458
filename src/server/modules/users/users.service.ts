import type { z } from 'zod';
import type { createUserBody, updateUserBody, User, UserSort } from '../../../contract/users.ts';
import { audit } from '../../lib/audit.ts';
import type { Ctx } from '../../lib/context.ts';
import { AppError } from '../../lib/errors.ts';
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

export async function listUsers(ctx: Ctx, filter: repo.UserFilter): Promise<UsersPage> {
  return repo.listUsers(ctx.database, filter);
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
  return repo.listUsers(ctx.database, { ...filter, sort });
}

/** A live member, or 404 (a soft-deleted member is gone for every reader). */
export async function requireUser(ctx: Pick<Ctx, 'database'>, userId: number): Promise<User> {
  const found = await repo.findUser(ctx.database, userId);
  if (!found) throw new AppError(404, NOT_FOUND);
  return found;
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
    const row = await repo.insertUser(tx, {
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
