import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { createUserBody, updateUserBody, User } from '../../../contract/users.ts';
import type { z } from 'zod';
import { users } from '../../db/schema/members.ts';
import { audit } from '../../plugins/audit.ts';
import { AppError } from '../../plugins/errors.ts';
import { contactTaken, findReferrer, findUser, insertUser, rankExists } from './users.repository.ts';

type CreateInput = z.output<typeof createUserBody>;
type UpdateInput = z.output<typeof updateUserBody>;

const NOT_FOUND = 'User ID not found';

export async function requireUser(app: FastifyInstance, userId: number): Promise<User> {
  const found = await findUser(app.database, userId);
  if (!found) throw new AppError(404, NOT_FOUND);
  return found;
}

/**
 * An operator adds a member (no password: members can't sign in). A referral code names the
 * referrer, and the new member sits one level below them; without one it is a level-1 member.
 */
export async function registerMember(app: FastifyInstance, request: FastifyRequest, input: CreateInput): Promise<User> {
  let referrer: { userId: number; level: number } | null = null;
  if (input.referralCode) {
    referrer = await findReferrer(app.database, input.referralCode);
    if (!referrer) throw new AppError(400, 'Invalid referral code');
  }
  const taken = await contactTaken(app.database, input);
  if (taken) throw new AppError(409, taken);
  const created = await app.database.db.transaction(async (tx) => {
    const row = await insertUser(tx, {
      fullName: input.fullName,
      dob: input.dob,
      email: input.email,
      phone: input.phone,
      whatsapp: input.whatsapp ?? null,
      image: input.image ?? null,
      referredBy: referrer?.userId ?? null,
      level: referrer ? referrer.level + 1 : 1,
    });
    await audit(tx, request, { action: 'create', entity: 'user', entityId: row.userId, after: row });
    return row;
  });
  return requireUser(app, created.userId);
}

export async function updateMember(
  app: FastifyInstance,
  request: FastifyRequest,
  userId: number,
  input: UpdateInput,
): Promise<User> {
  const before = await requireUser(app, userId);
  if (input.email !== undefined || input.phone !== undefined) {
    const taken = await contactTaken(app.database, { email: input.email, phone: input.phone }, userId);
    if (taken) throw new AppError(409, taken);
  }
  if (input.rankId != null && !(await rankExists(app.database, input.rankId))) {
    throw new AppError(400, 'Unknown rank');
  }
  if (input.status === false && userId === request.auth?.userId) {
    throw new AppError(409, 'You cannot deactivate your own account');
  }
  const changes = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  if (Object.keys(changes).length > 0) {
    await app.database.db.transaction(async (tx) => {
      const [after] = await tx
        .update(users)
        .set({ ...changes, updatedAt: new Date() })
        .where(and(eq(users.userId, userId), isNull(users.deletedAt)))
        .returning();
      if (!after) throw new AppError(404, NOT_FOUND);
      await audit(tx, request, { action: 'update', entity: 'user', entityId: userId, before, after });
    });
  }
  return requireUser(app, userId);
}

/**
 * Soft delete (decisions.md): the member leaves every list and answers 404, while their ledger,
 * payouts and referrals stay. Their sessions end with them (the session check skips deleted rows).
 */
export async function deleteMember(app: FastifyInstance, request: FastifyRequest, userId: number): Promise<void> {
  if (userId === request.auth?.userId) throw new AppError(409, 'You cannot delete your own account');
  const before = await requireUser(app, userId);
  await app.database.db.transaction(async (tx) => {
    const [gone] = await tx
      .update(users)
      .set({ deletedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(users.userId, userId), isNull(users.deletedAt)))
      .returning({ userId: users.userId });
    if (!gone) throw new AppError(404, NOT_FOUND);
    await audit(tx, request, { action: 'delete', entity: 'user', entityId: userId, before });
  });
}
