import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createRolePermissionBody, messageResponse, rolePermissionItemParams, rolePermissionListResponse, rolePermissionParams,
  rolePermissionResponse, updateRolePermissionBody,
} from '../../../contract/access.ts';
import { errorResponse } from '../../../contract/common.ts';
import * as service from './role-permissions.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const tags = ['role-permissions'];

export async function rolePermissionsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/role-permissions/getAllRolePermissions', {
    config: { access: 'roles_view' },
    schema: { tags, response: { 200: rolePermissionListResponse, 401: errorResponse, 403: errorResponse } },
  }, async () => ({ success: true as const, data: await service.listRolePermissions(app.database.db) }));

  app.post('/role-permissions/createPermissionForRole', {
    config: { access: 'roles_manage' },
    schema: { tags, body: createRolePermissionBody, response: { 201: rolePermissionResponse, ...errors } },
  }, async (request, reply) => {
    const data = await service.createRolePermission(app, request, request.body);
    return reply.code(201).send({ success: true as const, message: 'Role permission created successfully', data });
  });

  app.put('/role-permissions/updatePermissionForRole/:roleId', {
    config: { access: 'roles_manage' },
    schema: { tags, params: rolePermissionParams, body: updateRolePermissionBody, response: { 200: rolePermissionResponse, ...errors } },
  }, async (request) => {
    const data = await service.updateRolePermission(app, request, request.params.roleId, request.body);
    return { success: true as const, message: 'Role permission updated successfully', data };
  });

  app.delete('/role-permissions/removePermissionFromRole/:roleId/:permissionId', {
    config: { access: 'roles_manage' },
    schema: { tags, params: rolePermissionItemParams, response: { 200: rolePermissionResponse, ...errors } },
  }, async (request) => {
    const { roleId, permissionId } = request.params;
    const data = await service.removePermissionFromRole(app, request, roleId, permissionId);
    return { success: true as const, message: 'Permission removed from role successfully', data };
  });

  app.delete('/role-permissions/deleteRoleById/:roleId', {
    config: { access: 'roles_manage' },
    schema: { tags, params: rolePermissionParams, response: { 200: messageResponse, ...errors } },
  }, async (request) => {
    await service.deleteRolePermissions(app, request, request.params.roleId);
    return { success: true as const, message: 'Role permissions deleted successfully' };
  });
}
