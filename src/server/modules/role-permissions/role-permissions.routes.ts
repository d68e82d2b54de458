import type { FastifyInstance } from 'fastify';
import { rolePermissionsApi } from '../../../contract/access.ts';
import { contextOf } from '../../lib/context.ts';
import { keysetBatches, sendCsv } from '../../lib/csv.ts';
import { registerEndpoints } from '../../lib/routes.ts';
import * as service from './role-permissions.service.ts';

export async function rolePermissionsRoutes(app: FastifyInstance) {
  registerEndpoints(app, rolePermissionsApi, {
    list: async (request) => ({ success: true as const, data: await service.listRolePermissions(contextOf(request)) }),
    create: async (request) => ({
      success: true as const,
      message: 'Role permission created successfully',
      data: await service.createRolePermission(contextOf(request), request.body),
    }),
    update: async (request) => ({
      success: true as const,
      message: 'Role permission updated successfully',
      data: await service.updateRolePermission(contextOf(request), request.params.roleId, request.body),
    }),
    removePermission: async (request) => {
      const { roleId, permissionId } = request.params;
      const data = await service.removePermissionFromRole(contextOf(request), roleId, permissionId);
      return { success: true as const, message: 'Permission removed from role successfully', data };
    },
    remove: async (request) => {
      await service.deleteRolePermissions(contextOf(request), request.params.roleId);
      return { success: true as const, message: 'Role permissions deleted successfully' };
    },
    csv: async (request, reply) => {
      const ctx = contextOf(request);
      return sendCsv<number>(
        reply,
        'role-permissions.csv',
        ['Role ID', 'Role', 'Permission group', 'Permission IDs', 'Permissions', 'Status', 'Created'],
        keysetBatches({
          read: (afterId, limit) => service.rolePermissionsBatch(ctx, afterId ?? 0, limit),
          cells: (r) => [
            r.roleId, r.roleName, r.permissionName, r.permissionIds.join(' '), r.permissionNames.join(' '), r.status ? 'Active' : 'Inactive',
            r.createdAt,
          ],
          key: (r) => r.roleId,
        }),
      );
    },
  });
}
