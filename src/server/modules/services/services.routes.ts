import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { errorResponse } from '../../../contract/common.ts';
import {
  createServiceFields, SERVICE_ICON_MAX_BYTES, serviceCreatedResponse, serviceIdParams, serviceListResponse,
  serviceUpdatedResponse, updateServiceBody,
} from '../../../contract/services.ts';
import { AppError } from '../../plugins/errors.ts';
import { iconExists, readIcon, saveIcon } from './service-icons.ts';
import * as service from './services.service.ts';

const errors = {
  400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse, 413: errorResponse,
  415: errorResponse,
};
const tags = ['services'];
// A 1 MB icon plus a few short text fields.
const UPLOAD_BODY_LIMIT = SERVICE_ICON_MAX_BYTES + 64 * 1024;

type Icon = Awaited<ReturnType<typeof readIcon>>;

/** The text fields and the one `serviceIcon` file of a multipart request. */
async function readMultipart(request: FastifyRequest): Promise<{ fields: Record<string, string>; icon?: Icon }> {
  const fields: Record<string, string> = {};
  let icon: Icon | undefined;
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

function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors = result.error.issues.map((i) => ({ path: ['body', ...i.path].join('.'), message: i.message }));
  throw new AppError(400, `Invalid ${errors[0].path}: ${errors[0].message}`, { errors });
}

function checkStoredIcon(app: FastifyInstance, url: string) {
  if (!iconExists(app, url)) throw new AppError(400, `The icon ${url} does not exist`);
}

export async function servicesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  await app.register(multipart, {
    limits: { fileSize: SERVICE_ICON_MAX_BYTES, files: 1, fields: 12, fieldSize: 2000, parts: 13 },
  });

  app.get('/services/getAllServices', {
    config: { access: 'services_view' },
    schema: { tags, response: { 200: serviceListResponse, 401: errorResponse, 403: errorResponse } },
  }, async () => ({ success: true as const, data: await service.listServices(app.database.db) }));

  app.post('/services/createService', {
    config: { access: 'services_manage' },
    bodyLimit: UPLOAD_BODY_LIMIT,
    schema: { tags, consumes: ['multipart/form-data'], response: { 201: serviceCreatedResponse, ...errors } },
  }, async (request, reply) => {
    if (!request.isMultipart()) throw new AppError(415, 'Send a new service as multipart/form-data');
    const { fields, icon } = await readMultipart(request);
    const { existingIcon, ...input } = parse(createServiceFields, fields);
    let stored: { url: string; file?: string };
    if (icon) stored = await saveIcon(app, icon);
    else if (existingIcon) {
      checkStoredIcon(app, existingIcon);
      stored = { url: existingIcon };
    } else throw new AppError(400, 'An icon image is required for a new service');
    const data = await service.createService(app, request, input, stored);
    return reply.code(201).send({ success: true as const, message: 'Service created successfully', data });
  });

  // JSON as spec §7 says; multipart too, so that an edit can carry a new icon file.
  app.put('/services/updateService/:serviceId', {
    config: { access: 'services_manage' },
    bodyLimit: UPLOAD_BODY_LIMIT,
    schema: {
      tags, params: serviceIdParams, body: updateServiceBody.nullish(), response: { 200: serviceUpdatedResponse, ...errors },
    },
  }, async (request) => {
    let body: z.output<typeof updateServiceBody>;
    let icon: { url: string | null; file?: string } | undefined;
    if (request.isMultipart()) {
      const parts = await readMultipart(request);
      body = parse(updateServiceBody, parts.fields);
      if (parts.icon) icon = await saveIcon(app, parts.icon);
    } else {
      if (!request.body) throw new AppError(400, 'Please fill in the service name');
      body = request.body;
    }
    const { serviceIcon, ...input } = body;
    if (!icon && serviceIcon !== undefined) {
      if (serviceIcon !== null) checkStoredIcon(app, serviceIcon);
      icon = { url: serviceIcon };
    }
    const updatedService = await service.updateService(app, request, request.params.serviceId, input, icon);
    return { success: true as const, message: 'Service updated successfully', updatedService };
  });
}
