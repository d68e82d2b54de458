import type { FastifyInstance } from 'fastify';
import { rolePermissionsApi } from '../../../contract/access.ts';
import { contextOf } from '../../lib/context.ts';
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
  });
}
