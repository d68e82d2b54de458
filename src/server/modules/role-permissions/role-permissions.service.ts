import type { RolePermission } from '../../../contract/access.ts';
import { ADMIN_ROLE, USER_ROLE } from '../../../contract/permissions.ts';
import type { Db } from '../../db/client.ts';
import { audit } from '../../lib/audit.ts';
import type { Ctx } from '../../lib/context.ts';
import { AppError } from '../../lib/errors.ts';
import { lockRoleIfAny } from '../roles/roles.service.ts';
import * as repo from './role-permissions.repository.ts';

const USER_LOCKED = 'The User role is for members and cannot hold permissions';
const OWN_ROLE = 'You cannot change the permissions of your own role; ask another administrator to do it';
const ADMIN_LOCKED = 'The Admin role always holds every permission: its role permissions can\u2019t be deactivated, reduced or deleted, so that no one is locked out';

export interface CreateInput {
  roleId: number;
  permissionName?: string;
  permissionIds: number[];
  status: boolean;
}

export interface UpdateInput {
  permissionName?: string;
  permissionIds?: number[];
  status?: boolean;
}

/** The record as listed: the role's current name is shown. */
export async function listRolePermissions(ctx: Ctx): Promise<RolePermission[]> {
  return (await repo.listRolePermissions(ctx.database.db)).map((r) => repo.toRolePermission(r.rp, r.name));
}

/** One batch of the CSV: each record with the names of its permissions beside their ids (an id since deleted: none). */
export async function rolePermissionsBatch(ctx: Ctx, afterId: number, limit: number) {
  const db = ctx.database.db;
  const rows = await repo.rolePermissionsBatch(db, afterId, limit);
  const names = await repo.permissionNames(db, [...new Set(rows.flatMap((r) => r.rp.permissionIds))]);
  return rows.map((r) => ({ ...repo.toRolePermission(r.rp, r.name), permissionNames: r.rp.permissionIds.map((id) => names.get(id) ?? `#${id}`) }));
}

/** The names of these permission ids; an unknown id is a 400 naming it. */
async function permissionNames(db: Db, ids: number[]): Promise<Map<number, string>> {
  const names = await repo.permissionNames(db, ids);
  const unknown = ids.filter((id) => !names.has(id));
  if (unknown.length > 0) {
    throw new AppError(400, `Unknown permission ${unknown.length === 1 ? 'ID' : 'IDs'}: ${unknown.join(', ')}`);
  }
  return names;
}

async function editorRoleId(db: Db, ctx: Ctx): Promise<number | null> {
  return ctx.auth ? repo.roleOfAccount(db, ctx.auth.userId) : null;
}

/**
 * No privilege escalation (issue 13): the members' role grants nothing; nobody changes what their
 * own role grants; and a set can be given only permissions the editor holds. `granted` is what
 * the change starts granting: the added ids, or the whole set when it is switched on.
 */
async function assertMayGrant(db: Db, ctx: Ctx, role: { roleId: number; name: string }, change: {
  ids: number[];
  granted: number[];
  changesGrants: boolean;
}) {
  const names = await permissionNames(db, change.ids);
  if (role.name === USER_ROLE && change.ids.length > 0) throw new AppError(409, USER_LOCKED);
  if (change.changesGrants && role.roleId === (await editorRoleId(db, ctx))) throw new AppError(403, OWN_ROLE);
  const held = ctx.auth?.permissions ?? new Set<string>();
  const missing = change.granted.map((id) => names.get(id)!).filter((name) => !held.has(name));
  if (missing.length > 0) {
    throw new AppError(403, `You can only grant permissions you hold yourself; you do not hold ${missing.join(', ')}`);
  }
}

/**
 * Taking permissions away is checked like granting them (issue 22's outranking rule): whoever
 * shrinks, switches off or deletes a set that is on must hold every permission it grants now.
 * Otherwise an operator with roles_manage alone could strip an approvers' role of money_approve
 * (stalling four eyes) and then, the role granting nothing, drop its two-factor requirement. A
 * switched-off set grants nothing: anyone with roles_manage may shrink it.
 */
async function assertMayTakeAway(db: Db, ctx: Ctx, name: string, before: { status: boolean; permissionIds: number[] }) {
  if (!before.status) return;
  const held = ctx.auth?.permissions ?? new Set<string>();
  const grants = await repo.permissionNames(db, before.permissionIds);
  const missing = [...grants.values()].filter((p) => !held.has(p)).sort();
  if (missing.length > 0) {
    throw new AppError(403, `You can only take permissions from a role whose permissions you hold yourself; ${name} also grants ${missing.join(', ')}`);
  }
}

async function lockRecord(db: Db, roleId: number): Promise<repo.RolePermissionOfRole> {
  const row = await repo.lockRecord(db, roleId);
  if (!row) throw new AppError(404, `No role permissions found for role ${roleId}`);
  return row;
}

export async function createRolePermission(ctx: Ctx, input: CreateInput): Promise<RolePermission> {
  return ctx.database.db.transaction(async (tx) => {
    const role = await lockRoleIfAny(tx, input.roleId);
    if (!role) throw new AppError(400, `Role ${input.roleId} does not exist`);
    if (await repo.hasRecord(tx, input.roleId)) throw new AppError(409, `Role ${input.roleId} already has role permissions; edit them instead`);
    if (role.name === ADMIN_ROLE && !input.status) throw new AppError(409, ADMIN_LOCKED);
    await assertMayGrant(tx, ctx, role, { ids: input.permissionIds, granted: input.permissionIds, changesGrants: true });
    const row = await repo.insertRecord(tx, {
      roleId: input.roleId,
      roleName: role.name,
      permissionName: input.permissionName || 'Permission Group',
      permissionIds: input.permissionIds,
      status: input.status,
    });
    const data = repo.toRolePermission(row, role.name);
    await audit(tx, ctx, { action: 'create', entity: 'role_permission', entityId: input.roleId, after: data });
    return data;
  });
}

export async function updateRolePermission(ctx: Ctx, roleId: number, input: UpdateInput): Promise<RolePermission> {
  return ctx.database.db.transaction(async (tx) => {
    const { rp: before, name } = await lockRecord(tx, roleId);
    if (name === ADMIN_ROLE) {
      const dropped = input.permissionIds && before.permissionIds.some((id) => !input.permissionIds!.includes(id));
      if (input.status === false || dropped) throw new AppError(409, ADMIN_LOCKED);
    }
    const ids = input.permissionIds ?? before.permissionIds;
    const switchedOn = input.status === true && !before.status;
    const added = ids.filter((id) => !before.permissionIds.includes(id));
    const removed = before.permissionIds.filter((id) => !ids.includes(id));
    await assertMayGrant(tx, ctx, { roleId, name }, {
      ids,
      granted: switchedOn ? ids : (input.status ?? before.status) ? added : [],
      changesGrants: added.length > 0 || removed.length > 0 || (input.status !== undefined && input.status !== before.status),
    });
    if (removed.length > 0 || input.status === false) await assertMayTakeAway(tx, ctx, name, before);
    const row = await repo.updateRecord(tx, roleId, {
      roleName: name,
      ...(input.permissionName ? { permissionName: input.permissionName } : {}),
      ...(input.permissionIds ? { permissionIds: input.permissionIds } : {}),
      ...(input.status === undefined ? {} : { status: input.status }),
    });
    const data = repo.toRolePermission(row, name);
    await audit(tx, ctx, { action: 'update', entity: 'role_permission', entityId: roleId, before: repo.toRolePermission(before, name), after: data });
    return data;
  });
}

export async function removePermissionFromRole(ctx: Ctx, roleId: number, permissionId: number): Promise<RolePermission> {
  return ctx.database.db.transaction(async (tx) => {
    const { rp: before, name } = await lockRecord(tx, roleId);
    if (!before.permissionIds.includes(permissionId)) {
      throw new AppError(404, `Permission ${permissionId} is not assigned to role ${roleId}`);
    }
    if (name === ADMIN_ROLE) throw new AppError(409, ADMIN_LOCKED);
    if (roleId === (await editorRoleId(tx, ctx))) throw new AppError(403, OWN_ROLE);
    await assertMayTakeAway(tx, ctx, name, before);
    const row = await repo.updateRecord(tx, roleId, { permissionIds: before.permissionIds.filter((id) => id !== permissionId) });
    const data = repo.toRolePermission(row, name);
    await audit(tx, ctx, {
      action: 'remove_permission', entity: 'role_permission', entityId: roleId, before: repo.toRolePermission(before, name), after: data,
    });
    return data;
  });
}

/** Removes the role's whole permission set; the role itself stays (its accounts then hold nothing). */
export async function deleteRolePermissions(ctx: Ctx, roleId: number): Promise<void> {
  await ctx.database.db.transaction(async (tx) => {
    const { rp: before, name } = await lockRecord(tx, roleId);
    if (name === ADMIN_ROLE) throw new AppError(409, ADMIN_LOCKED);
    if (roleId === (await editorRoleId(tx, ctx))) throw new AppError(403, OWN_ROLE);
    await assertMayTakeAway(tx, ctx, name, before);
    await repo.deleteRecord(tx, roleId);
    await audit(tx, ctx, { action: 'delete', entity: 'role_permission', entityId: roleId, before: repo.toRolePermission(before, name) });
  });
}
