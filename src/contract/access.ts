import { z } from 'zod';
import { messageResponse } from './common.ts';
import { endpoints } from './endpoint.ts';
import { PERMISSION_MODULES } from './permissions.ts';

/**
 * Spec §5: lowercased, whitespace runs become underscores, anything outside a-z, 0-9 and
 * underscore is removed. The panel applies it before sending and the server again on receipt.
 */
export function normalizePermissionName(name: string): string {
  return name.toLowerCase().trim().replace(/\s+/g, '_').replace(/[^a-z0-9_]/g, '');
}

const id = z.coerce.number().int().positive().max(2_147_483_647);
export const permissionIdParams = z.object({ id });
export const roleIdParams = z.object({ id });
export const rolePermissionParams = z.object({ roleId: id });
export const rolePermissionItemParams = z.object({ roleId: id, permissionId: id });

// ---- Permissions ----

export const permission = z.object({
  permissionId: z.number(),
  name: z.string(),
  description: z.string(),
  module: z.string(),
  createdAt: z.string(),
});
export type Permission = z.infer<typeof permission>;

export const permissionBody = z.object({
  module: z.enum(PERMISSION_MODULES, { error: `Module must be one of ${PERMISSION_MODULES.join(', ')}` }),
  name: z
    .string({ error: 'Permission name is required' })
    .max(100, 'Permission name must be at most 100 characters')
    .transform(normalizePermissionName)
    .refine((v) => v.length > 0, 'Permission name must contain letters or digits'),
  description: z.string({ error: 'Description is required' }).trim().min(1, 'Description is required').max(500, 'Description must be at most 500 characters'),
});
export type PermissionBody = z.input<typeof permissionBody>;

/** The Permissions list's filters, for its CSV (issue 24: the export is of the filtered list). */
export const permissionsCsvQuery = z.object({
  q: z.string().max(200).optional(),
  module: z.enum(PERMISSION_MODULES, { error: `Module must be one of ${PERMISSION_MODULES.join(', ')}` }).optional(),
});

export const permissionListResponse = z.object({ success: z.literal(true), data: z.array(permission) });
export const permissionResponse = z.object({ success: z.literal(true), message: z.string(), data: permission });

export const permissionsApi = endpoints('permissions', {
  list: { method: 'GET', path: '/permissions/getPermissions', access: 'permissions_view', responses: { 200: permissionListResponse } },
  create: {
    method: 'POST', path: '/permissions/createPermission', access: 'permissions_manage', body: permissionBody,
    responses: { 201: permissionResponse },
  },
  update: {
    method: 'PUT', path: '/permissions/updatePermission/:id', access: 'permissions_manage', params: permissionIdParams,
    body: permissionBody, responses: { 200: permissionResponse },
  },
  remove: {
    method: 'DELETE', path: '/permissions/deletePermission/:id', access: 'permissions_manage', params: permissionIdParams,
    responses: { 200: messageResponse },
  },
  /** The permissions the filter matches (name or description containing q; a module), by id, streamed. */
  csv: { method: 'GET', path: '/permissions/permissions.csv', access: 'permissions_view', query: permissionsCsvQuery, file: 'csv', responses: {} },
});

// ---- Roles ----

export const role = z.object({
  roleId: z.number(),
  name: z.string(),
  status: z.boolean(),
  /** Its accounts must sign in with a two-factor code. */
  twoFactorRequired: z.boolean(),
  createdAt: z.string(),
});
export type Role = z.infer<typeof role>;

export const roleBody = z.object({
  name: z.string({ error: 'Please enter a role name' }).trim().min(1, 'Please enter a role name').max(100, 'Role name must be at most 100 characters'),
  status: z.boolean().default(true),
  /** Left out: false for a new role, unchanged on an update (the spec's client sends only name and status). */
  twoFactorRequired: z.boolean({ error: 'twoFactorRequired must be true or false' }).optional(),
});
export type RoleBody = z.input<typeof roleBody>;

export const roleListResponse = z.object({ success: z.literal(true), data: z.array(role) });
export const roleResponse = z.object({ success: z.literal(true), message: z.string(), data: role });

export const rolesApi = endpoints('roles', {
  list: { method: 'GET', path: '/GetAllRoles', access: 'roles_view', responses: { 200: roleListResponse } },
  create: { method: 'POST', path: '/CreateRoles', access: 'roles_manage', body: roleBody, responses: { 201: roleResponse } },
  update: {
    method: 'PUT', path: '/updateRole/:id', access: 'roles_manage', params: roleIdParams, body: roleBody, responses: { 200: roleResponse },
  },
  remove: { method: 'DELETE', path: '/deleteRole/:id', access: 'roles_manage', params: roleIdParams, responses: { 200: messageResponse } },
  /** The roles whose name contains q, by id, streamed. */
  csv: {
    method: 'GET', path: '/roles/roles.csv', access: 'roles_view', query: z.object({ q: z.string().max(200).optional() }), file: 'csv', responses: {},
  },
});

// ---- Role permissions ----

export const rolePermission = z.object({
  _id: z.string(),
  roleId: z.number(),
  roleName: z.string(),
  permissionName: z.string(),
  permissionIds: z.array(z.number()),
  status: z.boolean(),
  createdAt: z.string(),
});
export type RolePermission = z.infer<typeof rolePermission>;

const permissionIds = z
  .array(id, { error: 'permissionIds must be a list of permission ids' })
  .max(1000)
  .transform((ids) => [...new Set(ids)].sort((a, b) => a - b));

const groupName = z.string().trim().max(100, 'Permission group name must be at most 100 characters');

export const createRolePermissionBody = z.object({
  roleId: id,
  roleName: z.string().max(100).optional(),
  permissionName: groupName.optional(),
  permissionIds: permissionIds.refine((ids) => ids.length > 0, 'Select at least one permission'),
  status: z.boolean().default(true),
});
export type CreateRolePermissionBody = z.input<typeof createRolePermissionBody>;

export const updateRolePermissionBody = z.object({
  roleName: z.string().max(100).optional(),
  permissionName: groupName.optional(),
  permissionIds: permissionIds.optional(),
  status: z.boolean().optional(),
});
export type UpdateRolePermissionBody = z.input<typeof updateRolePermissionBody>;

export const rolePermissionListResponse = z.object({ success: z.literal(true), data: z.array(rolePermission) });
export const rolePermissionResponse = z.object({ success: z.literal(true), message: z.string(), data: rolePermission });

export const rolePermissionsApi = endpoints('role-permissions', {
  list: {
    method: 'GET', path: '/role-permissions/getAllRolePermissions', access: 'roles_view', responses: { 200: rolePermissionListResponse },
  },
  create: {
    method: 'POST', path: '/role-permissions/createPermissionForRole', access: 'roles_manage', body: createRolePermissionBody,
    responses: { 201: rolePermissionResponse },
  },
  update: {
    method: 'PUT', path: '/role-permissions/updatePermissionForRole/:roleId', access: 'roles_manage', params: rolePermissionParams,
    body: updateRolePermissionBody, responses: { 200: rolePermissionResponse },
  },
  /** Takes one permission out of the role's set. */
  removePermission: {
    method: 'DELETE', path: '/role-permissions/removePermissionFromRole/:roleId/:permissionId', access: 'roles_manage',
    params: rolePermissionItemParams, responses: { 200: rolePermissionResponse },
  },
  /** Removes the role's whole set; the role itself stays. */
  remove: {
    method: 'DELETE', path: '/role-permissions/deleteRoleById/:roleId', access: 'roles_manage', params: rolePermissionParams,
    responses: { 200: messageResponse },
  },
  /** Every role's set with the permissions' names beside their ids, by role id, streamed. */
  csv: { method: 'GET', path: '/role-permissions/rolePermissions.csv', access: 'roles_view', file: 'csv', responses: {} },
});
