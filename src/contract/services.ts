import { z } from 'zod';
import { endpoints } from './endpoint.ts';

export const SERVICE_CATEGORIES = ['Recharge', 'BBPS'] as const;
export type ServiceCategory = (typeof SERVICE_CATEGORIES)[number];

/** Spec §3: BBPS if the description/category text contains 'bill' or 'payment' or equals BBPS. */
export function deriveCategory(...texts: (string | null | undefined)[]): ServiceCategory {
  const bbps = texts.some((t) => {
    const v = (t ?? '').trim().toLowerCase();
    return v === 'bbps' || v.includes('bill') || v.includes('payment');
  });
  return bbps ? 'BBPS' : 'Recharge';
}

/** Where uploaded icons are served (outside /api: an <img> sends no bearer token). */
export const SERVICE_ICON_BASE = '/uploads/service-icons/';
/** Random hex names the server gives uploads; anything else is refused (no path traversal). */
export const SERVICE_ICON_FILE = /^[a-f0-9]{32}\.(png|jpg|webp)$/;
export const SERVICE_ICON_MAX_BYTES = 1024 * 1024;
/** A request carrying an icon: the icon plus room for the other fields. */
export const SERVICE_UPLOAD_BODY_LIMIT = SERVICE_ICON_MAX_BYTES + 64 * 1024;
export const SERVICE_ICON_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const SERVICE_ICON_RULE = 'The icon must be a PNG, JPEG or WebP image of at most 1 MB';

export const service = z.object({
  serviceId: z.number(),
  serviceType: z.string(),
  serviceName: z.string(),
  serviceIcon: z.string().nullable(),
  status: z.boolean(),
  category: z.enum(SERVICE_CATEGORIES),
  description: z.string(),
  createdAt: z.string(),
});
export type Service = z.infer<typeof service>;

const statusField = z.preprocess(
  (v) => (v === 'true' ? true : v === 'false' ? false : v),
  z.boolean({ error: 'Status must be true or false' }),
);

/** An icon path the server stored earlier (existingIcon, or serviceIcon on update). */
export const storedIconPath = z
  .string()
  .refine((v) => v.startsWith(SERVICE_ICON_BASE) && SERVICE_ICON_FILE.test(v.slice(SERVICE_ICON_BASE.length)), {
    message: `The icon must be an uploaded icon path (${SERVICE_ICON_BASE}…)`,
  });

/** The fields of create (multipart text fields) and update (JSON). */
export const serviceFields = z.object({
  serviceType: z.string().trim().max(60, 'Service type must be at most 60 characters').regex(/^[A-Za-z0-9_ -]*$/, 'Service type may contain only letters, digits, spaces, dashes and underscores').optional(),
  serviceName: z.string({ error: 'Please fill in the service name' }).trim().min(1, 'Please fill in the service name').max(100, 'Service name must be at most 100 characters'),
  category: z.enum(SERVICE_CATEGORIES, { error: 'Category must be Recharge or BBPS' }).optional(),
  description: z.string().trim().max(300, 'Description must be at most 300 characters').optional(),
  status: statusField.default(true),
});

export const createServiceFields = serviceFields.extend({ existingIcon: storedIconPath.optional() });

export const updateServiceBody = serviceFields.extend({
  /** An uploaded icon path to switch to, or null to remove the icon; absent keeps it. */
  serviceIcon: storedIconPath.nullable().optional(),
});
export type UpdateServiceBody = z.input<typeof updateServiceBody>;

export const serviceIdParams = z.object({ serviceId: z.coerce.number().int().positive().max(2_147_483_647) });

export const serviceListResponse = z.object({ success: z.literal(true), data: z.array(service) });
export const serviceCreatedResponse = z.object({ success: z.literal(true), message: z.string(), data: service });
export const serviceUpdatedResponse = z.object({ success: z.literal(true), message: z.string(), updatedService: service });

export const servicesApi = endpoints('services', {
  list: { method: 'GET', path: '/services/getAllServices', access: 'services_view', responses: { 200: serviceListResponse } },
  /** The services as CSV, streamed. */
  csv: { method: 'GET', path: '/services/services.csv', access: 'services_view', file: 'csv', responses: {} },
  /** Multipart (spec §7): the text fields of createServiceFields and a `serviceIcon` file, or existingIcon. */
  create: {
    method: 'POST', path: '/services/createService', access: 'services_manage', multipart: true, body: createServiceFields,
    bodyLimit: SERVICE_UPLOAD_BODY_LIMIT,
    responses: { 201: serviceCreatedResponse },
  },
  /**
   * JSON as spec §7 says; multipart too, so that an edit can carry a new icon file (its fields are
   * then checked by the route). A multipart request has no JSON body, hence nullish.
   */
  update: {
    method: 'PUT', path: '/services/updateService/:serviceId', access: 'services_manage', params: serviceIdParams,
    multipart: 'optional', bodyLimit: SERVICE_UPLOAD_BODY_LIMIT, body: updateServiceBody.nullish(), responses: { 200: serviceUpdatedResponse },
  },
});
