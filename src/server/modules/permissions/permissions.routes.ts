import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  messageResponse, permissionBody, permissionIdParams, permissionListResponse, permissionResponse,
} from '../../../contract/access.ts';
import { errorResponse } from '../../../contract/common.ts';
import * as service from './permissions.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const tags = ['permissions'];

export async function permissionsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/permissions/getPermissions', {
    config: { access: 'permissions_view' },
    schema: { tags, response: { 200: permissionListResponse, 401: errorResponse, 403: errorResponse } },
  }, async () => ({ success: true as const, data: await service.listPermissions(app.database.db) }));

  app.post('/permissions/createPermission', {
    config: { access: 'permissions_manage' },
    schema: { tags, body: permissionBody, response: { 201: permissionResponse, ...errors } },
  }, async (request, reply) => {
    const data = await service.createPermission(app, request, request.body);
    return reply.code(201).send({ success: true as const, message: 'Permission created successfully', data });
  });

  app.put('/permissions/updatePermission/:id', {
    config: { access: 'permissions_manage' },
    schema: { tags, params: permissionIdParams, body: permissionBody, response: { 200: permissionResponse, ...errors } },
  }, async (request) => {
    const data = await service.updatePermission(app, request, request.params.id, request.body);
    return { success: true as const, message: 'Permission updated successfully', data };
  });

  app.delete('/permissions/deletePermission/:id', {
    config: { access: 'permissions_manage' },
    schema: { tags, params: permissionIdParams, response: { 200: messageResponse, ...errors } },
  }, async (request) => {
    await service.deletePermission(app, request, request.params.id);
    return { success: true as const, message: 'Permission deleted successfully' };
  });
}
