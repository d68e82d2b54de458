import { boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const roles = pgTable('roles', {
  roleId: integer('role_id').primaryKey().generatedByDefaultAsIdentity(),
  name: text('name').notNull().unique(),
  /**
   * The name as compared for uniqueness (issue 22): NFKC, case folded, invisible characters
   * removed, confusable letters folded (roles.service nameKey), so "Admın" is "admin".
   */
  nameKey: text('name_key').notNull().unique().$defaultFn(() => ''), // set by the trigger roles_name_key
  status: boolean('status').notNull().default(true),
  /** Accounts of this role must sign in with a TOTP code (in production Admin always does). */
  twoFactorRequired: boolean('two_factor_required').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const permissions = pgTable('permissions', {
  permissionId: integer('permission_id').primaryKey().generatedByDefaultAsIdentity(),
  name: text('name').notNull().unique(),
  description: text('description').notNull(),
  module: text('module').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One permission set per role (spec §3 Role permission; decisions.md: roleId unique). */
export const rolePermissions = pgTable(
  'role_permissions',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    roleId: integer('role_id').notNull().unique().references(() => roles.roleId, { onDelete: 'cascade' }),
    roleName: text('role_name').notNull().default(''),
    permissionName: text('permission_name').notNull().default('Permission Group'),
    permissionIds: integer('permission_ids').array().notNull().default([]),
    status: boolean('status').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('role_permissions_permission_ids_idx').using('gin', t.permissionIds)],
);
