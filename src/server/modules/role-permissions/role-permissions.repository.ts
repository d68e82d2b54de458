import { asc, eq, gt, inArray } from 'drizzle-orm';
import type { RolePermission } from '../../../contract/access.ts';
import type { Db } from '../../db/client.ts';
import { iso } from '../../db/rows.ts';
import { permissions, rolePermissions, roles } from '../../db/schema/access.ts';
import { users } from '../../db/schema/members.ts';

export type RolePermissionRow = typeof rolePermissions.$inferSelect;
/** A record with its role's current name (the record's own roleName may be stale). */
export interface RolePermissionOfRole {
  rp: RolePermissionRow;
  name: string;
}

export const toRolePermission = (row: RolePermissionRow, roleName: string): RolePermission => ({
  _id: String(row.id),
  roleId: row.roleId,
  roleName,
  permissionName: row.permissionName,
  permissionIds: row.permissionIds,
  status: row.status,
  createdAt: iso(row.createdAt),
});

const withRoleName = { rp: rolePermissions, name: roles.name };

/** One record per role, so this is as short as the roles list. */
export async function listRolePermissions(db: Db): Promise<RolePermissionOfRole[]> {
  return db
    .select(withRoleName)
    .from(rolePermissions)
    .innerJoin(roles, eq(roles.roleId, rolePermissions.roleId))
    .orderBy(asc(rolePermissions.roleId));
}

/** One batch of the CSV: the records of roles with ids above `afterId`, by role id. */
export async function rolePermissionsBatch(db: Db, afterId: number, limit: number): Promise<RolePermissionOfRole[]> {
  return db
    .select(withRoleName)
    .from(rolePermissions)
    .innerJoin(roles, eq(roles.roleId, rolePermissions.roleId))
    .where(gt(rolePermissions.roleId, afterId))
    .orderBy(asc(rolePermissions.roleId))
    .limit(limit);
}

/** The role's record, locked until the transaction ends. */
export async function lockRecord(db: Db, roleId: number): Promise<RolePermissionOfRole | null> {
  const [row] = await db
    .select(withRoleName)
    .from(rolePermissions)
    .innerJoin(roles, eq(roles.roleId, rolePermissions.roleId))
    .where(eq(rolePermissions.roleId, roleId))
    .for('update');
  return row ?? null;
}

export async function hasRecord(db: Db, roleId: number): Promise<boolean> {
  const rows = await db.select({ id: rolePermissions.id }).from(rolePermissions).where(eq(rolePermissions.roleId, roleId));
  return rows.length > 0;
}

/** The names of those of these permission ids that exist. */
export async function permissionNames(db: Db, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const found = await db
    .select({ id: permissions.permissionId, name: permissions.name })
    .from(permissions)
    .where(inArray(permissions.permissionId, ids));
  return new Map(found.map((f) => [f.id, f.name]));
}

/** The role an account holds (null: none). */
export async function roleOfAccount(db: Db, userId: number): Promise<number | null> {
  const [row] = await db.select({ roleId: users.roleId }).from(users).where(eq(users.userId, userId));
  return row?.roleId ?? null;
}

export async function insertRecord(
  db: Db, values: Pick<RolePermissionRow, 'roleId' | 'roleName' | 'permissionName' | 'permissionIds' | 'status'>,
): Promise<RolePermissionRow> {
  const [row] = await db.insert(rolePermissions).values(values).returning();
  return row;
}

export async function updateRecord(
  db: Db, roleId: number, values: Partial<Pick<RolePermissionRow, 'roleName' | 'permissionName' | 'permissionIds' | 'status'>>,
): Promise<RolePermissionRow> {
  const [row] = await db.update(rolePermissions).set(values).where(eq(rolePermissions.roleId, roleId)).returning();
  return row;
}

export async function deleteRecord(db: Db, roleId: number): Promise<void> {
  await db.delete(rolePermissions).where(eq(rolePermissions.roleId, roleId));
}
