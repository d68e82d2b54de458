import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { messageResponse, roleBody, roleIdParams, roleListResponse, roleResponse } from '../../../contract/access.ts';
import { errorResponse } from '../../../contract/common.ts';
import * as service from './roles.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const tags = ['roles'];

export async function rolesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/GetAllRoles', {
    config: { access: 'roles_view' },
    schema: { tags, response: { 200: roleListResponse, 401: errorResponse, 403: errorResponse } },
  }, async () => ({ success: true as const, data: await service.listRoles(app) }));

  app.post('/CreateRoles', {
    config: { access: 'roles_manage' },
    schema: { tags, body: roleBody, response: { 201: roleResponse, ...errors } },
  }, async (request, reply) => {
    const data = await service.createRole(app, request, request.body);
    return reply.code(201).send({ success: true as const, message: 'Role created successfully', data });
  });

  app.put('/updateRole/:id', {
    config: { access: 'roles_manage' },
    schema: { tags, params: roleIdParams, body: roleBody, response: { 200: roleResponse, ...errors } },
  }, async (request) => {
    const data = await service.updateRole(app, request, request.params.id, request.body);
    return { success: true as const, message: 'Role updated successfully', data };
  });

  app.delete('/deleteRole/:id', {
    config: { access: 'roles_manage' },
    schema: { tags, params: roleIdParams, response: { 200: messageResponse, ...errors } },
  }, async (request) => {
    await service.deleteRole(app, request, request.params.id);
    return { success: true as const, message: 'Role deleted successfully' };
  });
}
