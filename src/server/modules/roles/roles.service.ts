import type { Role } from '../../../contract/access.ts';
import { ADMIN_ROLE, USER_ROLE } from '../../../contract/permissions.ts';
import type { Db } from '../../db/client.ts';
import { audit } from '../../lib/audit.ts';
import type { Ctx } from '../../lib/context.ts';
import { AppError } from '../../lib/errors.ts';
import * as repo from './roles.repository.ts';

export interface RoleInput {
  name: string;
  status: boolean;
  /** Left out: false for a new role, unchanged on an update. */
  twoFactorRequired?: boolean;
}

export async function listRoles(ctx: Ctx): Promise<Role[]> {
  return (await repo.listRoles(ctx.database.db)).map((row) => repo.toRole(row, ctx.config.adminTwoFactor));
}

async function assertNameFree(db: Db, name: string, exceptRoleId?: number) {
  if (await repo.nameTaken(db, name, exceptRoleId)) throw new AppError(409, `A role named ${name} already exists`);
}

async function lockRole(db: Db, roleId: number) {
  const row = await repo.lockRole(db, roleId);
  if (!row) throw new AppError(404, `Role ${roleId} not found`);
  return row;
}

export async function createRole(ctx: Ctx, input: RoleInput): Promise<Role> {
  return ctx.database.db.transaction(async (tx) => {
    await assertNameFree(tx, input.name);
    const row = await repo.insertRole(tx, { ...input, twoFactorRequired: input.twoFactorRequired ?? false });
    const data = repo.toRole(row, ctx.config.adminTwoFactor);
    await audit(tx, ctx, { action: 'create', entity: 'role', entityId: row.roleId, after: data });
    return data;
  });
}

export async function updateRole(ctx: Ctx, roleId: number, input: RoleInput): Promise<Role> {
  const { adminTwoFactor } = ctx.config;
  return ctx.database.db.transaction(async (tx) => {
    const before = await lockRole(tx, roleId);
    // Admin holds every permission: renaming or deactivating it could lock every operator out.
    if (before.name === ADMIN_ROLE && (input.name !== ADMIN_ROLE || !input.status)) {
      throw new AppError(409, 'The Admin role can\u2019t be renamed or deactivated, so that no one is locked out');
    }
    // Self-registration gives accounts the User role by name.
    if (before.name === USER_ROLE && input.name !== USER_ROLE) {
      throw new AppError(409, 'The User role is given to self-registered accounts and can\u2019t be renamed');
    }
    if (before.name === ADMIN_ROLE && adminTwoFactor && input.twoFactorRequired === false) {
      throw new AppError(409, 'This server requires two-factor sign-in for the Admin role (ADMIN_TWO_FACTOR), so it can\u2019t be switched off here');
    }
    if (input.name !== before.name) await assertNameFree(tx, input.name, roleId);
    const row = await repo.updateRole(tx, roleId, input);
    if (input.name !== before.name) await repo.renameRolePermissions(tx, roleId, input.name);
    const data = repo.toRole(row, adminTwoFactor);
    await audit(tx, ctx, { action: 'update', entity: 'role', entityId: roleId, before: repo.toRole(before, adminTwoFactor), after: data });
    return data;
  });
}

/** Deletes a role nobody holds, with its role-permission record. */
export async function deleteRole(ctx: Ctx, roleId: number): Promise<void> {
  await ctx.database.db.transaction(async (tx) => {
    const before = await lockRole(tx, roleId);
    if (before.name === ADMIN_ROLE || before.name === USER_ROLE) {
      throw new AppError(409, `The ${before.name} role is built in and can\u2019t be deleted`);
    }
    if (await repo.isHeld(tx, roleId)) {
      throw new AppError(409, `Role ${before.name} is held by accounts; give them another role before deleting it`);
    }
    const rolePermissions = await repo.findRolePermissions(tx, roleId);
    await repo.deleteRole(tx, roleId);
    if (rolePermissions) await audit(tx, ctx, { action: 'delete', entity: 'role_permission', entityId: roleId, before: rolePermissions });
    await audit(tx, ctx, { action: 'delete', entity: 'role', entityId: roleId, before: repo.toRole(before, ctx.config.adminTwoFactor) });
  });
}
