import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { z } from 'zod';
import { createServiceFields, SERVICE_ICON_MAX_BYTES, servicesApi, updateServiceBody } from '../../../contract/services.ts';
import { contextOf } from '../../lib/context.ts';
import { keysetBatches, sendCsv } from '../../lib/csv.ts';
import { AppError, inputProblem, invalidInput } from '../../lib/errors.ts';
import { registerEndpoints } from '../../lib/routes.ts';
import { readIcon, type IconUpload } from './service-icons.ts';
import * as service from './services.service.ts';

/** The text fields and the one `serviceIcon` file of a multipart request. */
async function readMultipart(request: FastifyRequest): Promise<{ fields: Record<string, string>; icon?: IconUpload }> {
  const fields: Record<string, string> = {};
  let icon: IconUpload | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'serviceIcon') throw new AppError(400, `Unexpected file field ${part.fieldname}`);
        icon = await readIcon(part);
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    // A truncated or malformed body makes the parser throw a bare Error: the client's fault.
    if (err instanceof AppError || (err as { statusCode?: number }).statusCode) throw err;
    throw new AppError(400, 'The upload is not a complete multipart/form-data body');
  }
  return { fields, icon };
}

/** Checks multipart text fields as a JSON body is checked, with the same error answer. */
function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw invalidInput(result.error.issues.map((i) => inputProblem('body', i.path, i.message)));
}

export async function servicesRoutes(app: FastifyInstance) {
  await app.register(multipart, {
    limits: { fileSize: SERVICE_ICON_MAX_BYTES, files: 1, fields: 12, fieldSize: 2000, parts: 13 },
  });
  registerEndpoints(app, servicesApi, {
    list: async (request) => ({ success: true as const, data: await service.listServices(contextOf(request)) }),
    csv: async (request, reply) => {
      const ctx = contextOf(request);
      return sendCsv<number>(
        reply,
        'services.csv',
        ['Service ID', 'Service Name', 'Service Type', 'Category', 'Status', 'Icon', 'Created'],
        keysetBatches({
          read: (afterId, limit) => service.servicesBatch(ctx, afterId ?? 0, limit),
          cells: (s) => [s.serviceId, s.serviceName, s.serviceType, s.category, s.status ? 'Active' : 'Inactive', s.serviceIcon, s.createdAt],
          key: (s) => s.serviceId,
        }),
      );
    },
    create: async (request) => {
      if (!request.isMultipart()) throw new AppError(415, 'Send a new service as multipart/form-data');
      const { fields, icon } = await readMultipart(request);
      const { existingIcon, ...input } = parse(createServiceFields, fields);
      const data = await service.createService(contextOf(request), input, { upload: icon, path: existingIcon });
      return { success: true as const, message: 'Service created successfully', data };
    },
    update: async (request) => {
      let body: z.output<typeof updateServiceBody>;
      let upload: IconUpload | undefined;
      if (request.isMultipart()) {
        const parts = await readMultipart(request);
        body = parse(updateServiceBody, parts.fields);
        upload = parts.icon;
      } else {
        if (!request.body) throw new AppError(400, 'Please fill in the service name');
        body = request.body;
      }
      const { serviceIcon, ...input } = body;
      const updatedService = await service.updateService(contextOf(request), request.params.serviceId, input, { upload, path: serviceIcon });
      return { success: true as const, message: 'Service updated successfully', updatedService };
    },
  });
}
