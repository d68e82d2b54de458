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
/** Finding 2 of issue 13: a member editor could change an administrator's email and take the account over. */
const STAFF_ACCOUNT = 'This account signs in to the back-office, so it is managed on the Staff screen, not here';
const STAFF_NOT_DELETED = 'This account signs in to the back-office and cannot be deleted here; deactivate it on the Staff screen';

async function signsIn(app: FastifyInstance, userId: number): Promise<boolean> {
  const [row] = await app.database.db
    .select({ canSignIn: users.canSignIn })
    .from(users)
    .where(and(eq(users.userId, userId), isNull(users.deletedAt)));
  return row?.canSignIn === true;
}

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
  if (await signsIn(app, userId)) throw new AppError(403, STAFF_ACCOUNT);
  if (input.email !== undefined || input.phone !== undefined) {
    const taken = await contactTaken(app.database, { email: input.email, phone: input.phone }, userId);
    if (taken) throw new AppError(409, taken);
  }
  if (input.rankId != null && !(await rankExists(app.database, input.rankId))) {
    throw new AppError(400, 'Unknown rank');
  }
  const changes = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  if (Object.keys(changes).length > 0) {
    await app.database.db.transaction(async (tx) => {
      const [after] = await tx
        .update(users)
        .set({ ...changes, updatedAt: new Date() })
        // Matched as a member again: the check above ran outside this transaction.
        .where(and(eq(users.userId, userId), isNull(users.deletedAt), eq(users.canSignIn, false)))
        .returning();
      if (!after) throw new AppError(404, NOT_FOUND);
      await audit(tx, request, { action: 'update', entity: 'user', entityId: userId, before, after });
    });
  }
  return requireUser(app, userId);
}

/**
 * The body schema drops keys it does not know, so a role sent to the member route would vanish
 * behind "User updated successfully" (issue 13 finding 1): it is refused before validation.
 */
export async function refuseRoleInMemberBody(request: FastifyRequest): Promise<void> {
  const body = request.body;
  if (body && typeof body === 'object' && ('role' in body || 'roleId' in body)) {
    throw new AppError(400, 'Roles are assigned on the Staff screen, not on member records');
  }
}

/**
 * Soft delete (decisions.md): the member leaves every list and answers 404, while their ledger,
 * payouts and referrals stay. Their sessions end with them (the session check skips deleted rows).
 */
export async function deleteMember(app: FastifyInstance, request: FastifyRequest, userId: number): Promise<void> {
  if (userId === request.auth?.userId) throw new AppError(409, 'You cannot delete your own account');
  const before = await requireUser(app, userId);
  if (await signsIn(app, userId)) throw new AppError(403, STAFF_NOT_DELETED);
  await app.database.db.transaction(async (tx) => {
    // Matched as a member again: the check above ran outside this transaction.
    const [gone] = await tx
      .update(users)
      .set({ deletedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(users.userId, userId), isNull(users.deletedAt), eq(users.canSignIn, false)))
      .returning({ userId: users.userId });
    if (!gone) throw new AppError(404, NOT_FOUND);
    await audit(tx, request, { action: 'delete', entity: 'user', entityId: userId, before });
  });
}
