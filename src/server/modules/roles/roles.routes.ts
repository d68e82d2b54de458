import type { FastifyInstance } from 'fastify';
import { rolesApi } from '../../../contract/access.ts';
import { contextOf } from '../../lib/context.ts';
import { keysetBatches, sendCsv } from '../../lib/csv.ts';
import { registerEndpoints } from '../../lib/routes.ts';
import * as service from './roles.service.ts';

export async function rolesRoutes(app: FastifyInstance) {
  registerEndpoints(app, rolesApi, {
    list: async (request) => ({ success: true as const, data: await service.listRoles(contextOf(request)) }),
    create: async (request) => ({
      success: true as const,
      message: 'Role created successfully',
      data: await service.createRole(contextOf(request), request.body),
    }),
    update: async (request) => ({
      success: true as const,
      message: 'Role updated successfully',
      data: await service.updateRole(contextOf(request), request.params.id, request.body),
    }),
    remove: async (request) => {
      await service.deleteRole(contextOf(request), request.params.id);
      return { success: true as const, message: 'Role deleted successfully' };
    },
    csv: async (request, reply) => {
      const ctx = contextOf(request);
      return sendCsv<number>(reply, 'roles.csv', ['Role ID', 'Name', 'Status', 'Two-factor required', 'Created'], keysetBatches({
        read: (afterId, limit) => service.rolesBatch(ctx, request.query.q, afterId ?? 0, limit),
        cells: (r) => [r.roleId, r.name, r.status ? 'Active' : 'Inactive', r.twoFactorRequired ? 'Yes' : 'No', r.createdAt],
        key: (r) => r.roleId,
      }));
    },
  });
}
