import { and, asc, eq, ne } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Role } from '../../../contract/access.ts';
import { ADMIN_ROLE, roleRequiresTwoFactor, USER_ROLE } from '../../../contract/permissions.ts';
import type { Db } from '../../db/client.ts';
import { rolePermissions, roles } from '../../db/schema/access.ts';
import { users } from '../../db/schema/members.ts';
import { audit } from '../../plugins/audit.ts';
import { AppError } from '../../plugins/errors.ts';

type Row = typeof roles.$inferSelect;
interface RoleInput {
  name: string;
  status: boolean;
  twoFactorRequired?: boolean;
}

export function toWire(row: Row, adminTwoFactor: boolean): Role {
  return {
    roleId: row.roleId,
    name: row.name,
    status: row.status,
    // With ADMIN_TWO_FACTOR the Admin role requires two-factor whatever its row says, and the list shows it so.
    twoFactorRequired: roleRequiresTwoFactor(row, adminTwoFactor),
    createdAt: row.createdAt.toISOString(),
  };
}

/** Roles are a short list (a handful to a few dozen), returned whole. */
export async function listRoles(app: FastifyInstance): Promise<Role[]> {
  const rows = await app.database.db.select().from(roles).orderBy(asc(roles.roleId));
  return rows.map((row) => toWire(row, app.config.adminTwoFactor));
}

async function assertNameFree(db: Db, name: string, exceptId?: number) {
  const [row] = await db
    .select({ roleId: roles.roleId })
    .from(roles)
    .where(exceptId === undefined ? eq(roles.name, name) : and(eq(roles.name, name), ne(roles.roleId, exceptId)))
    .limit(1);
  if (row) throw new AppError(409, `A role named ${name} already exists`);
}

export async function createRole(app: FastifyInstance, request: FastifyRequest, input: RoleInput) {
  return app.database.db.transaction(async (tx) => {
    await assertNameFree(tx, input.name);
    const [row] = await tx.insert(roles).values({ ...input, twoFactorRequired: input.twoFactorRequired ?? false }).returning();
    const data = toWire(row, app.config.adminTwoFactor);
    await audit(tx, request, { action: 'create', entity: 'role', entityId: row.roleId, after: data });
    return data;
  });
}

async function lockRole(tx: Db, id: number): Promise<Row> {
  const [row] = await tx.select().from(roles).where(eq(roles.roleId, id)).for('update');
  if (!row) throw new AppError(404, `Role ${id} not found`);
  return row;
}

export async function updateRole(app: FastifyInstance, request: FastifyRequest, id: number, input: RoleInput) {
  return app.database.db.transaction(async (tx) => {
    const before = await lockRole(tx, id);
    // Admin holds every permission: renaming or deactivating it could lock every operator out.
    if (before.name === ADMIN_ROLE && (input.name !== ADMIN_ROLE || !input.status)) {
      throw new AppError(409, 'The Admin role can\u2019t be renamed or deactivated, so that no one is locked out');
    }
    // Self-registration gives accounts the User role by name.
    if (before.name === USER_ROLE && input.name !== USER_ROLE) {
      throw new AppError(409, 'The User role is given to self-registered accounts and can\u2019t be renamed');
    }
    if (before.name === ADMIN_ROLE && app.config.adminTwoFactor && input.twoFactorRequired === false) {
      throw new AppError(409, 'This server requires two-factor sign-in for the Admin role (ADMIN_TWO_FACTOR), so it can\u2019t be switched off here');
    }
    if (input.name !== before.name) await assertNameFree(tx, input.name, id);
    const [row] = await tx.update(roles).set(input).where(eq(roles.roleId, id)).returning();
    if (input.name !== before.name) {
      await tx.update(rolePermissions).set({ roleName: input.name }).where(eq(rolePermissions.roleId, id));
    }
    const { adminTwoFactor } = app.config;
    const data = toWire(row, adminTwoFactor);
    await audit(tx, request, { action: 'update', entity: 'role', entityId: id, before: toWire(before, adminTwoFactor), after: data });
    return data;
  });
}

/** Deletes a role nobody holds, with its role-permission record (FK cascade). */
export async function deleteRole(app: FastifyInstance, request: FastifyRequest, id: number): Promise<void> {
  await app.database.db.transaction(async (tx) => {
    const before = await lockRole(tx, id);
    if (before.name === ADMIN_ROLE || before.name === USER_ROLE) {
      throw new AppError(409, `The ${before.name} role is built in and can\u2019t be deleted`);
    }
    // users_role_idx makes this a single index probe, however many members there are.
    const [holder] = await tx.select({ userId: users.userId }).from(users).where(eq(users.roleId, id)).limit(1);
    if (holder) {
      throw new AppError(409, `Role ${before.name} is held by accounts; give them another role before deleting it`);
    }
    const [rp] = await tx.select().from(rolePermissions).where(eq(rolePermissions.roleId, id));
    await tx.delete(roles).where(eq(roles.roleId, id));
    if (rp) await audit(tx, request, { action: 'delete', entity: 'role_permission', entityId: id, before: rp });
    await audit(tx, request, { action: 'delete', entity: 'role', entityId: id, before: toWire(before, app.config.adminTwoFactor) });
  });
}
