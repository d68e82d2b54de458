import type { FastifyInstance } from 'fastify';
import { permissionsApi } from '../../../contract/access.ts';
import { contextOf } from '../../lib/context.ts';
import { keysetBatches, sendCsv } from '../../lib/csv.ts';
import { registerEndpoints } from '../../lib/routes.ts';
import * as service from './permissions.service.ts';

export async function permissionsRoutes(app: FastifyInstance) {
  registerEndpoints(app, permissionsApi, {
    list: async (request) => ({ success: true as const, data: await service.listPermissions(contextOf(request)) }),
    create: async (request) => ({
      success: true as const,
      message: 'Permission created successfully',
      data: await service.createPermission(contextOf(request), request.body),
    }),
    update: async (request) => ({
      success: true as const,
      message: 'Permission updated successfully',
      data: await service.updatePermission(contextOf(request), request.params.id, request.body),
    }),
    remove: async (request) => {
      await service.deletePermission(contextOf(request), request.params.id);
      return { success: true as const, message: 'Permission deleted successfully' };
    },
    csv: async (request, reply) => {
      const ctx = contextOf(request);
      return sendCsv<number>(reply, 'permissions.csv', ['Permission ID', 'Name', 'Module', 'Description', 'Created'], keysetBatches({
        read: (afterId, limit) => service.permissionsBatch(ctx, request.query, afterId ?? 0, limit),
        cells: (p) => [p.permissionId, p.name, p.module, p.description, p.createdAt],
        key: (p) => p.permissionId,
      }));
    },
  });
}
