import { asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Permission } from '../../../contract/access.ts';
import { PERMISSIONS } from '../../../contract/permissions.ts';
import type { Db } from '../../db/client.ts';
import { permissions, rolePermissions } from '../../db/schema/access.ts';
import { audit } from '../../plugins/audit.ts';
import { AppError } from '../../plugins/errors.ts';

type Row = typeof permissions.$inferSelect;
interface PermissionInput {
  name: string;
  description: string;
  module: string;
}

export function toWire(row: Row): Permission {
  return {
    permissionId: row.permissionId,
    name: row.name,
    description: row.description,
    module: row.module,
    createdAt: row.createdAt.toISOString(),
  };
}

// The routes declare these names in config.access: renaming or deleting one would silently
// take a screen away from every role but Admin.
const BUILT_IN = new Set<string>(Object.keys(PERMISSIONS));

/** The whole catalogue: a few dozen rows, ordered by module then name. */
export async function listPermissions(db: Db): Promise<Permission[]> {
  const rows = await db.select().from(permissions).orderBy(asc(permissions.module), asc(permissions.name));
  return rows.map(toWire);
}

async function nameTaken(db: Db, name: string, exceptId?: number): Promise<boolean> {
  const [row] = await db.select({ id: permissions.permissionId }).from(permissions).where(eq(permissions.name, name)).limit(1);
  return !!row && row.id !== exceptId;
}

const DUPLICATE = (name: string) => new AppError(409, `A permission named ${name} already exists`);

export async function createPermission(app: FastifyInstance, request: FastifyRequest, input: PermissionInput) {
  return app.database.db.transaction(async (tx) => {
    if (await nameTaken(tx, input.name)) throw DUPLICATE(input.name);
    const [row] = await tx.insert(permissions).values(input).returning();
    await audit(tx, request, { action: 'create', entity: 'permission', entityId: row.permissionId, after: toWire(row) });
    return toWire(row);
  });
}

async function lockPermission(tx: Db, id: number): Promise<Row> {
  const [row] = await tx.select().from(permissions).where(eq(permissions.permissionId, id)).for('update');
  if (!row) throw new AppError(404, `Permission ${id} not found`);
  return row;
}

export async function updatePermission(app: FastifyInstance, request: FastifyRequest, id: number, input: PermissionInput) {
  return app.database.db.transaction(async (tx) => {
    const before = await lockPermission(tx, id);
    if (input.name !== before.name) {
      if (BUILT_IN.has(before.name)) {
        throw new AppError(409, `${before.name} is used by the server's routes and can't be renamed; only its description and module can change`);
      }
      if (await nameTaken(tx, input.name, id)) throw DUPLICATE(input.name);
    }
    const [row] = await tx.update(permissions).set(input).where(eq(permissions.permissionId, id)).returning();
    await audit(tx, request, { action: 'update', entity: 'permission', entityId: id, before: toWire(before), after: toWire(row) });
    return toWire(row);
  });
}

/** Deletes the permission and, in the same transaction, takes its id out of every role's set. */
export async function deletePermission(app: FastifyInstance, request: FastifyRequest, id: number): Promise<void> {
  await app.database.db.transaction(async (tx) => {
    const before = await lockPermission(tx, id);
    if (BUILT_IN.has(before.name)) {
      throw new AppError(409, `${before.name} is used by the server's routes and can't be deleted`);
    }
    const changed = await tx
      .update(rolePermissions)
      .set({ permissionIds: sql`array_remove(${rolePermissions.permissionIds}, ${id})` })
      .where(sql`${rolePermissions.permissionIds} @> array[${id}::int]`)
      .returning({ roleId: rolePermissions.roleId, permissionIds: rolePermissions.permissionIds });
    for (const rp of changed) {
      await audit(tx, request, {
        action: 'remove_permission', entity: 'role_permission', entityId: rp.roleId,
        before: { permissionId: id }, after: { permissionIds: rp.permissionIds },
      });
    }
    await tx.delete(permissions).where(eq(permissions.permissionId, id));
    await audit(tx, request, { action: 'delete', entity: 'permission', entityId: id, before: toWire(before) });
  });
}
