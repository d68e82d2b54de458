import { z } from 'zod';
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
  description: z.string({ error: 'Description is required' }).trim().min(1, 'Description is required').max(500),
});
export type PermissionBody = z.input<typeof permissionBody>;

export const permissionListResponse = z.object({ success: z.literal(true), data: z.array(permission) });
export const permissionResponse = z.object({ success: z.literal(true), message: z.string(), data: permission });

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
  name: z.string({ error: 'Please enter a role name' }).trim().min(1, 'Please enter a role name').max(100),
  status: z.boolean().default(true),
  /** Left out: false for a new role, unchanged on an update (the spec's client sends only name and status). */
  twoFactorRequired: z.boolean({ error: 'twoFactorRequired must be true or false' }).optional(),
});
export type RoleBody = z.input<typeof roleBody>;

export const roleListResponse = z.object({ success: z.literal(true), data: z.array(role) });
export const roleResponse = z.object({ success: z.literal(true), message: z.string(), data: role });

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

const groupName = z.string().trim().max(100);

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
export const messageResponse = z.object({ success: z.literal(true), message: z.string() });
