import type { Role } from '../../../contract/access.ts';
import { ADMIN_ROLE, USER_ROLE } from '../../../contract/permissions.ts';
import type { Db } from '../../db/client.ts';
import { audit } from '../../lib/audit.ts';
import type { Ctx } from '../../lib/context.ts';
import { AppError } from '../../lib/errors.ts';
import * as repo from './roles.repository.ts';

export type { RoleGrants } from './roles.repository.ts';

export interface RoleInput {
  name: string;
  status: boolean;
  /** Left out: false for a new role, unchanged on an update. */
  twoFactorRequired?: boolean;
}

export async function listRoles(ctx: Ctx): Promise<Role[]> {
  return (await repo.listRoles(ctx.database.db)).map((row) => repo.toRole(row, ctx.config.adminTwoFactor));
}

export async function rolesBatch(ctx: Ctx, q: string | undefined, afterId: number, limit: number): Promise<Role[]> {
  return (await repo.rolesBatch(ctx.database.db, q, afterId, limit)).map((row) => repo.toRole(row, ctx.config.adminTwoFactor));
}

/** The refusal of a name another role already has once normalised, on the name field. */
function duplicate(existing: string, asked: string): AppError {
  const message = existing === asked
    ? `A role named ${existing} already exists`
    : `A role named ${existing} already exists, and ${asked} counts as the same name (role names are compared ignoring case, accents, invisible characters and look-alike letters)`;
  return new AppError(409, message, { errors: [{ path: 'body.name', field: 'name', message }] });
}

async function assertNameFree(db: Db, name: string, exceptRoleId?: number) {
  const existing = await repo.sameNamedRole(db, name, exceptRoleId);
  if (existing !== null) throw duplicate(existing, name);
}

/**
 * Runs `write`, turning a race on roles_name_key_unique (two saves of look-alike names at the
 * same moment, both past assertNameFree) into the same 409 as the check.
 */
async function uniquely<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    const cause = (err as { cause?: { code?: string; constraint?: string } }).cause ?? (err as { code?: string; constraint?: string });
    if (cause?.code === '23505' && (cause.constraint === 'roles_name_key_unique' || cause.constraint === 'roles_name_unique')) {
      throw duplicate(name, name);
    }
    throw err;
  }
}

/**
 * The outranking rule (issue 22), as for staff and role permissions: whoever renames a role,
 * switches it on or off, changes its two-factor flag or deletes it must hold every permission it
 * grants; otherwise an operator with roles_manage alone could switch back on a role an
 * administrator switched off, or let its holders sign in without a second factor.
 */
async function assertOutranks(db: Db, ctx: Ctx, roleId: number): Promise<void> {
  const role = await repo.roleGrants(db, roleId);
  if (!role) return;
  const held = ctx.auth?.permissions ?? new Set<string>();
  const missing = role.permissions.filter((p) => !held.has(p));
  if (missing.length > 0) {
    throw new AppError(
      403,
      `You can only change a role whose permissions you hold yourself; ${role.name} also grants ${missing.join(', ')}`,
    );
  }
}

/** A role and every permission it grants (Admin: all of them); null when there is no such role. */
export function roleGrants(db: Db, roleId: number): Promise<repo.RoleGrants | null> {
  return repo.roleGrants(db, roleId);
}

/** A role locked for the caller's transaction (its record of permissions is about to change); null when there is none. */
export function lockRoleIfAny(tx: Db, roleId: number): Promise<repo.RoleRow | null> {
  return repo.lockRole(tx, roleId);
}

async function lockRole(db: Db, roleId: number) {
  const row = await repo.lockRole(db, roleId);
  if (!row) throw new AppError(404, `Role ${roleId} not found`);
  return row;
}

export async function createRole(ctx: Ctx, input: RoleInput): Promise<Role> {
  return uniquely(input.name, () => ctx.database.db.transaction(async (tx) => {
    await assertNameFree(tx, input.name);
    const row = await repo.insertRole(tx, { ...input, twoFactorRequired: input.twoFactorRequired ?? false });
    const data = repo.toRole(row, ctx.config.adminTwoFactor);
    await audit(tx, ctx, { action: 'create', entity: 'role', entityId: row.roleId, after: data });
    return data;
  }));
}

export async function updateRole(ctx: Ctx, roleId: number, input: RoleInput): Promise<Role> {
  const { adminTwoFactor } = ctx.config;
  return uniquely(input.name, () => ctx.database.db.transaction(async (tx) => {
    const before = await lockRole(tx, roleId);
    const changes = input.name !== before.name || input.status !== before.status
      || (input.twoFactorRequired !== undefined && input.twoFactorRequired !== before.twoFactorRequired);
    if (changes) await assertOutranks(tx, ctx, roleId);
    // Outranking one's own role is no check at all: its second factor is dropped by someone else.
    if (input.twoFactorRequired === false && before.twoFactorRequired && before.name === ctx.auth?.role) {
      throw new AppError(403, 'You cannot drop the two-factor requirement of your own role; ask another administrator to do it');
    }
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
  }));
}

/** Deletes a role nobody holds, with its role-permission record. */
export async function deleteRole(ctx: Ctx, roleId: number): Promise<void> {
  await ctx.database.db.transaction(async (tx) => {
    const before = await lockRole(tx, roleId);
    if (before.name === ADMIN_ROLE || before.name === USER_ROLE) {
      throw new AppError(409, `The ${before.name} role is built in and can\u2019t be deleted`);
    }
    await assertOutranks(tx, ctx, roleId);
    if (await repo.isHeld(tx, roleId)) {
      throw new AppError(409, `Role ${before.name} is held by accounts; give them another role before deleting it`);
    }
    const rolePermissions = await repo.findRolePermissions(tx, roleId);
    await repo.deleteRole(tx, roleId);
    if (rolePermissions) await audit(tx, ctx, { action: 'delete', entity: 'role_permission', entityId: roleId, before: rolePermissions });
    await audit(tx, ctx, { action: 'delete', entity: 'role', entityId: roleId, before: repo.toRole(before, ctx.config.adminTwoFactor) });
  });
}
