import { asc, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RolePermission } from '../../../contract/access.ts';
import { ADMIN_ROLE, USER_ROLE } from '../../../contract/permissions.ts';
import type { Db } from '../../db/client.ts';
import { permissions, rolePermissions, roles } from '../../db/schema/access.ts';
import { users } from '../../db/schema/members.ts';
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

/** The names of these permission ids; an unknown id is a 400 naming it. */
async function permissionNames(tx: Db, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const found = await tx
    .select({ id: permissions.permissionId, name: permissions.name })
    .from(permissions)
    .where(inArray(permissions.permissionId, ids));
  const names = new Map(found.map((f) => [f.id, f.name]));
  const unknown = ids.filter((id) => !names.has(id));
  if (unknown.length > 0) {
    throw new AppError(400, `Unknown permission ${unknown.length === 1 ? 'ID' : 'IDs'}: ${unknown.join(', ')}`);
  }
  return names;
}

const USER_LOCKED = 'The User role is for members and cannot hold permissions';
const OWN_ROLE = 'You cannot change the permissions of your own role; ask another administrator to do it';

async function editorRoleId(tx: Db, request: FastifyRequest): Promise<number | null> {
  if (!request.auth) return null;
  const [row] = await tx.select({ roleId: users.roleId }).from(users).where(eq(users.userId, request.auth.userId));
  return row?.roleId ?? null;
}

/**
 * No privilege escalation (issue 13): the members' role grants nothing; nobody changes what their
 * own role grants; and a set can be given only permissions the editor holds. `granted` is what
 * the change starts granting: the added ids, or the whole set when it is switched on.
 */
async function assertMayGrant(tx: Db, request: FastifyRequest, role: { roleId: number; name: string }, change: {
  ids: number[];
  granted: number[];
  changesGrants: boolean;
}) {
  const names = await permissionNames(tx, change.ids);
  if (role.name === USER_ROLE && change.ids.length > 0) throw new AppError(409, USER_LOCKED);
  if (change.changesGrants && role.roleId === (await editorRoleId(tx, request))) throw new AppError(403, OWN_ROLE);
  const held = request.auth?.permissions ?? new Set<string>();
  const missing = change.granted.map((id) => names.get(id)!).filter((name) => !held.has(name));
  if (missing.length > 0) {
    throw new AppError(403, `You can only grant permissions you hold yourself; you do not hold ${missing.join(', ')}`);
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
    await assertMayGrant(tx, request, role, { ids: input.permissionIds, granted: input.permissionIds, changesGrants: true });
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
    const ids = input.permissionIds ?? before.permissionIds;
    const switchedOn = input.status === true && !before.status;
    const added = ids.filter((id) => !before.permissionIds.includes(id));
    const removed = before.permissionIds.filter((id) => !ids.includes(id));
    await assertMayGrant(tx, request, { roleId, name }, {
      ids,
      granted: switchedOn ? ids : (input.status ?? before.status) ? added : [],
      changesGrants: added.length > 0 || removed.length > 0 || (input.status !== undefined && input.status !== before.status),
    });
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
    if (roleId === (await editorRoleId(tx, request))) throw new AppError(403, OWN_ROLE);
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
    if (roleId === (await editorRoleId(tx, request))) throw new AppError(403, OWN_ROLE);
    await tx.delete(rolePermissions).where(eq(rolePermissions.roleId, roleId));
    await audit(tx, request, { action: 'delete', entity: 'role_permission', entityId: roleId, before: toWire(before, name) });
  });
}
