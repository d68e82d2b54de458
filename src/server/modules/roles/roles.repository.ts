import { and, asc, eq, gt, ne, sql } from 'drizzle-orm';
import type { Role } from '../../../contract/access.ts';
import { ADMIN_ROLE, roleRequiresTwoFactor } from '../../../contract/permissions.ts';
import type { Db } from '../../db/client.ts';
import { iso } from '../../db/rows.ts';
import { rolePermissions, roles } from '../../db/schema/access.ts';
import { users } from '../../db/schema/members.ts';

export type RoleRow = typeof roles.$inferSelect;
export type RolePermissionRow = typeof rolePermissions.$inferSelect;

export const toRole = (row: RoleRow, adminTwoFactor: boolean): Role => ({
  roleId: row.roleId,
  name: row.name,
  status: row.status,
  // With ADMIN_TWO_FACTOR the Admin role requires two-factor whatever its row says, and the list shows it so.
  twoFactorRequired: roleRequiresTwoFactor(row, adminTwoFactor),
  createdAt: iso(row.createdAt),
});

/** Roles are a short list (a handful to a few dozen), returned whole. */
export async function listRoles(db: Db): Promise<RoleRow[]> {
  return db.select().from(roles).orderBy(asc(roles.roleId));
}

/** One batch of the CSV: roles whose name contains `q` (any case) with ids above `afterId`, by id. */
export async function rolesBatch(db: Db, q: string | undefined, afterId: number, limit: number): Promise<RoleRow[]> {
  const term = q?.trim().toLowerCase();
  return db.select().from(roles)
    .where(and(gt(roles.roleId, afterId), term ? sql`strpos(lower(${roles.name}), ${term}) > 0` : undefined))
    .orderBy(asc(roles.roleId))
    .limit(limit);
}

/**
 * The name of another role that is the same name once normalised (the trigger's role_name_key:
 * NFKC, case folded, invisible characters removed, look-alike letters folded), or null.
 */
export async function sameNamedRole(db: Db, name: string, exceptRoleId?: number): Promise<string | null> {
  const same = eq(roles.nameKey, sql`role_name_key(${name})`);
  const [row] = await db
    .select({ name: roles.name })
    .from(roles)
    .where(exceptRoleId === undefined ? same : and(same, ne(roles.roleId, exceptRoleId)))
    .limit(1);
  return row?.name ?? null;
}

/** The role, locked until the transaction ends. */
export async function lockRole(db: Db, roleId: number): Promise<RoleRow | null> {
  const [row] = await db.select().from(roles).where(eq(roles.roleId, roleId)).for('update');
  return row ?? null;
}

export async function insertRole(db: Db, values: { name: string; status: boolean; twoFactorRequired: boolean }): Promise<RoleRow> {
  const [row] = await db.insert(roles).values(values).returning();
  return row;
}

export async function updateRole(
  db: Db, roleId: number, values: { name: string; status: boolean; twoFactorRequired?: boolean },
): Promise<RoleRow> {
  const [row] = await db.update(roles).set(values).where(eq(roles.roleId, roleId)).returning();
  return row;
}

/** The role-permission record carries the role's name too: keep it in step. */
export async function renameRolePermissions(db: Db, roleId: number, name: string): Promise<void> {
  await db.update(rolePermissions).set({ roleName: name }).where(eq(rolePermissions.roleId, roleId));
}

/** Whether any account holds the role; users_role_idx makes this a single index probe. */
export async function isHeld(db: Db, roleId: number): Promise<boolean> {
  const rows = await db.select({ userId: users.userId }).from(users).where(eq(users.roleId, roleId)).limit(1);
  return rows.length > 0;
}

export async function findRolePermissions(db: Db, roleId: number): Promise<RolePermissionRow | null> {
  const [row] = await db.select().from(rolePermissions).where(eq(rolePermissions.roleId, roleId));
  return row ?? null;
}

/** Deletes the role; its role-permission record goes with it (FK cascade). */
export async function deleteRole(db: Db, roleId: number): Promise<void> {
  await db.delete(roles).where(eq(roles.roleId, roleId));
}

export interface RoleGrants {
  roleId: number;
  name: string;
  status: boolean;
  twoFactorRequired: boolean;
  /**
   * Every permission the role's record names, whatever the role's or record's status (a switched
   * off set can be switched on again later); for Admin every permission there is.
   */
  permissions: string[];
}

// The subquery names roles.role_id itself: Drizzle writes a one-table select's columns unqualified,
// which inside the subquery would mean rp.role_id.
export async function roleGrants(db: Db, roleId: number): Promise<RoleGrants | null> {
  const [row] = await db
    .select({
      roleId: roles.roleId,
      name: roles.name,
      status: roles.status,
      twoFactorRequired: roles.twoFactorRequired,
      permissions: sql<string[]>`case when ${roles.name} = ${ADMIN_ROLE} then array(select p.name from permissions p order by p.name)
        else array(select p.name from role_permissions rp
                     join permissions p on p.permission_id = any(rp.permission_ids)
                    where rp.role_id = roles.role_id order by p.name)
        end`,
    })
    .from(roles)
    .where(eq(roles.roleId, roleId));
  return row ?? null;
}
