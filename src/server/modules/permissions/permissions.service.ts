import type { Permission } from '../../../contract/access.ts';
import { PERMISSIONS } from '../../../contract/permissions.ts';
import type { Db } from '../../db/client.ts';
import { audit } from '../../lib/audit.ts';
import type { Ctx } from '../../lib/context.ts';
import { AppError } from '../../lib/errors.ts';
import * as repo from './permissions.repository.ts';

export interface PermissionInput {
  name: string;
  description: string;
  module: string;
}

// The routes declare these names as their access: renaming or deleting one would silently
// take a screen away from every role but Admin.
const BUILT_IN = new Set<string>(Object.keys(PERMISSIONS));

const duplicate = (name: string) => new AppError(409, `A permission named ${name} already exists`);

export async function listPermissions(ctx: Ctx): Promise<Permission[]> {
  return (await repo.listPermissions(ctx.database.db)).map(repo.toPermission);
}

export function permissionsBatch(ctx: Ctx, filter: { q?: string; module?: string }, afterId: number, limit: number) {
  return repo.permissionsBatch(ctx.database.db, filter, afterId, limit);
}

export async function createPermission(ctx: Ctx, input: PermissionInput): Promise<Permission> {
  return ctx.database.db.transaction(async (tx) => {
    if (await repo.nameTaken(tx, input.name)) throw duplicate(input.name);
    const data = repo.toPermission(await repo.insertPermission(tx, input));
    await audit(tx, ctx, { action: 'create', entity: 'permission', entityId: data.permissionId, after: data });
    return data;
  });
}

async function lockPermission(db: Db, permissionId: number) {
  const row = await repo.lockPermission(db, permissionId);
  if (!row) throw new AppError(404, `Permission ${permissionId} not found`);
  return row;
}

/** A built-in permission keeps its name; its description and module may change. */
export async function updatePermission(ctx: Ctx, permissionId: number, input: PermissionInput): Promise<Permission> {
  return ctx.database.db.transaction(async (tx) => {
    const before = await lockPermission(tx, permissionId);
    if (input.name !== before.name) {
      if (BUILT_IN.has(before.name)) {
        throw new AppError(409, `${before.name} is used by the server's routes and can't be renamed; only its description and module can change`);
      }
      if (await repo.nameTaken(tx, input.name, permissionId)) throw duplicate(input.name);
    }
    const data = repo.toPermission(await repo.updatePermission(tx, permissionId, input));
    await audit(tx, ctx, { action: 'update', entity: 'permission', entityId: permissionId, before: repo.toPermission(before), after: data });
    return data;
  });
}

/** Deletes the permission and, in the same transaction, takes its id out of every role's set. */
export async function deletePermission(ctx: Ctx, permissionId: number): Promise<void> {
  await ctx.database.db.transaction(async (tx) => {
    const before = await lockPermission(tx, permissionId);
    if (BUILT_IN.has(before.name)) {
      throw new AppError(409, `${before.name} is used by the server's routes and can't be deleted`);
    }
    for (const set of await repo.removeFromRoleSets(tx, permissionId)) {
      await audit(tx, ctx, {
        action: 'remove_permission', entity: 'role_permission', entityId: set.roleId,
        before: { permissionId }, after: { permissionIds: set.permissionIds },
      });
    }
    await repo.deletePermission(tx, permissionId);
    await audit(tx, ctx, { action: 'delete', entity: 'permission', entityId: permissionId, before: repo.toPermission(before) });
  });
}
