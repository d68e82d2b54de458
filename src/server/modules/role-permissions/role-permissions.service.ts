import { asc, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RolePermission } from '../../../contract/access.ts';
import { ADMIN_ROLE } from '../../../contract/permissions.ts';
import type { Db } from '../../db/client.ts';
import { permissions, rolePermissions, roles } from '../../db/schema/access.ts';
import { audit } from '../../plugins/audit.ts';
import { AppError } from '../../plugins/errors.ts';

type Row = typeof rolePermissions.$inferSelect;

function toWire(row: Row, roleName: string): RolePermission {
  return {
    _id: String(row.id),
    roleId: row.roleId,
    roleName,
    permissionName: row.permissionName,
    permissionIds: row.permissionIds,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
  };
}

/** One record per role, so this is as short as the roles list; the role's current name is shown. */
export async function listRolePermissions(db: Db): Promise<RolePermission[]> {
  const rows = await db
    .select({ rp: rolePermissions, name: roles.name })
    .from(rolePermissions)
    .innerJoin(roles, eq(roles.roleId, rolePermissions.roleId))
    .orderBy(asc(rolePermissions.roleId));
  return rows.map((r) => toWire(r.rp, r.name));
}

async function assertPermissionsExist(tx: Db, ids: number[]) {
  if (ids.length === 0) return;
  const found = await tx.select({ id: permissions.permissionId }).from(permissions).where(inArray(permissions.permissionId, ids));
  const known = new Set(found.map((f) => f.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw new AppError(400, `Unknown permission ${unknown.length === 1 ? 'ID' : 'IDs'}: ${unknown.join(', ')}`);
  }
}

async function lockRecord(tx: Db, roleId: number): Promise<{ rp: Row; name: string }> {
  const [row] = await tx
    .select({ rp: rolePermissions, name: roles.name })
    .from(rolePermissions)
    .innerJoin(roles, eq(roles.roleId, rolePermissions.roleId))
    .where(eq(rolePermissions.roleId, roleId))
    .for('update');
  if (!row) throw new AppError(404, `No role permissions found for role ${roleId}`);
  return row;
}

const ADMIN_LOCKED = 'The Admin role always holds every permission: its role permissions can\u2019t be deactivated, reduced or deleted, so that no one is locked out';

interface CreateInput {
  roleId: number;
  permissionName?: string;
  permissionIds: number[];
  status: boolean;
}

export async function createRolePermission(app: FastifyInstance, request: FastifyRequest, input: CreateInput) {
  return app.database.db.transaction(async (tx) => {
    const [role] = await tx.select().from(roles).where(eq(roles.roleId, input.roleId)).for('update');
    if (!role) throw new AppError(400, `Role ${input.roleId} does not exist`);
    const [existing] = await tx.select({ id: rolePermissions.id }).from(rolePermissions).where(eq(rolePermissions.roleId, input.roleId));
    if (existing) throw new AppError(409, `Role ${input.roleId} already has role permissions; edit them instead`);
    if (role.name === ADMIN_ROLE && !input.status) throw new AppError(409, ADMIN_LOCKED);
    await assertPermissionsExist(tx, input.permissionIds);
    const [row] = await tx
      .insert(rolePermissions)
      .values({
        roleId: input.roleId,
        roleName: role.name,
        permissionName: input.permissionName || 'Permission Group',
        permissionIds: input.permissionIds,
        status: input.status,
      })
      .returning();
    const data = toWire(row, role.name);
    await audit(tx, request, { action: 'create', entity: 'role_permission', entityId: input.roleId, after: data });
    return data;
  });
}

interface UpdateInput {
  permissionName?: string;
  permissionIds?: number[];
  status?: boolean;
}

export async function updateRolePermission(app: FastifyInstance, request: FastifyRequest, roleId: number, input: UpdateInput) {
  return app.database.db.transaction(async (tx) => {
    const { rp: before, name } = await lockRecord(tx, roleId);
    if (name === ADMIN_ROLE) {
      const dropped = input.permissionIds && before.permissionIds.some((id) => !input.permissionIds!.includes(id));
      if (input.status === false || dropped) throw new AppError(409, ADMIN_LOCKED);
    }
    if (input.permissionIds) await assertPermissionsExist(tx, input.permissionIds);
    const [row] = await tx
      .update(rolePermissions)
      .set({
        roleName: name,
        ...(input.permissionName ? { permissionName: input.permissionName } : {}),
        ...(input.permissionIds ? { permissionIds: input.permissionIds } : {}),
        ...(input.status === undefined ? {} : { status: input.status }),
      })
      .where(eq(rolePermissions.roleId, roleId))
      .returning();
    const data = toWire(row, name);
    await audit(tx, request, { action: 'update', entity: 'role_permission', entityId: roleId, before: toWire(before, name), after: data });
    return data;
  });
}

export async function removePermissionFromRole(app: FastifyInstance, request: FastifyRequest, roleId: number, permissionId: number) {
  return app.database.db.transaction(async (tx) => {
    const { rp: before, name } = await lockRecord(tx, roleId);
    if (!before.permissionIds.includes(permissionId)) {
      throw new AppError(404, `Permission ${permissionId} is not assigned to role ${roleId}`);
    }
    if (name === ADMIN_ROLE) throw new AppError(409, ADMIN_LOCKED);
    const [row] = await tx
      .update(rolePermissions)
      .set({ permissionIds: before.permissionIds.filter((id) => id !== permissionId) })
      .where(eq(rolePermissions.roleId, roleId))
      .returning();
    const data = toWire(row, name);
    await audit(tx, request, { action: 'remove_permission', entity: 'role_permission', entityId: roleId, before: toWire(before, name), after: data });
    return data;
  });
}

/** Removes the role's whole permission set; the role itself stays (its accounts then hold nothing). */
export async function deleteRolePermissions(app: FastifyInstance, request: FastifyRequest, roleId: number): Promise<void> {
  await app.database.db.transaction(async (tx) => {
    const { rp: before, name } = await lockRecord(tx, roleId);
    if (name === ADMIN_ROLE) throw new AppError(409, ADMIN_LOCKED);
    await tx.delete(rolePermissions).where(eq(rolePermissions.roleId, roleId));
    await audit(tx, request, { action: 'delete', entity: 'role_permission', entityId: roleId, before: toWire(before, name) });
  });
}
