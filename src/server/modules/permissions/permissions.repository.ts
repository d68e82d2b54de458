import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { Permission } from '../../../contract/access.ts';
import type { Db } from '../../db/client.ts';
import { iso } from '../../db/rows.ts';
import { permissions, rolePermissions } from '../../db/schema/access.ts';

export type PermissionRow = typeof permissions.$inferSelect;
type PermissionValues = Pick<PermissionRow, 'name' | 'description' | 'module'>;

export const toPermission = (row: PermissionRow): Permission => ({
  permissionId: row.permissionId,
  name: row.name,
  description: row.description,
  module: row.module,
  createdAt: iso(row.createdAt),
});

/** The whole catalogue: a few dozen rows, ordered by module then name. */
export async function listPermissions(db: Db): Promise<PermissionRow[]> {
  return db.select().from(permissions).orderBy(asc(permissions.module), asc(permissions.name));
}

/** One batch of the CSV: permissions matching the filter with ids above `afterId`, by id. */
export async function permissionsBatch(db: Db, filter: { q?: string; module?: string }, afterId: number, limit: number): Promise<PermissionRow[]> {
  // The panel's own match: the name or the description contains the term, whatever its case.
  const term = filter.q?.trim().toLowerCase();
  return db.select().from(permissions)
    .where(and(
      gt(permissions.permissionId, afterId),
      filter.module ? eq(permissions.module, filter.module) : undefined,
      term ? sql`(strpos(lower(${permissions.name}), ${term}) > 0 or strpos(lower(${permissions.description}), ${term}) > 0)` : undefined,
    ))
    .orderBy(asc(permissions.permissionId))
    .limit(limit);
}

/** Another permission with exactly this name. */
export async function nameTaken(db: Db, name: string, exceptPermissionId?: number): Promise<boolean> {
  const [row] = await db.select({ id: permissions.permissionId }).from(permissions).where(eq(permissions.name, name)).limit(1);
  return !!row && row.id !== exceptPermissionId;
}

/** The permission, locked until the transaction ends. */
export async function lockPermission(db: Db, permissionId: number): Promise<PermissionRow | null> {
  const [row] = await db.select().from(permissions).where(eq(permissions.permissionId, permissionId)).for('update');
  return row ?? null;
}

export async function insertPermission(db: Db, values: PermissionValues): Promise<PermissionRow> {
  const [row] = await db.insert(permissions).values(values).returning();
  return row;
}

export async function updatePermission(db: Db, permissionId: number, values: PermissionValues): Promise<PermissionRow> {
  const [row] = await db.update(permissions).set(values).where(eq(permissions.permissionId, permissionId)).returning();
  return row;
}

/** Takes the id out of every role's set (the GIN index finds them); returns the sets it changed. */
export async function removeFromRoleSets(db: Db, permissionId: number): Promise<{ roleId: number; permissionIds: number[] }[]> {
  return db
    .update(rolePermissions)
    .set({ permissionIds: sql`array_remove(${rolePermissions.permissionIds}, ${permissionId})` })
    .where(sql`${rolePermissions.permissionIds} @> array[${permissionId}::int]`)
    .returning({ roleId: rolePermissions.roleId, permissionIds: rolePermissions.permissionIds });
}

export async function deletePermission(db: Db, permissionId: number): Promise<void> {
  await db.delete(permissions).where(eq(permissions.permissionId, permissionId));
}
