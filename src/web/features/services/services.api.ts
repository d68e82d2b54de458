import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  deriveCategory, service, serviceCreatedResponse, servicesApi, serviceUpdatedResponse, type ServiceCategory, type UpdateServiceBody,
} from '../../../contract/services';
import { client } from '../../lib/api-client';

export interface ServiceRow {
  id: number | null;
  serviceType: string;
  serviceName: string;
  serviceIcon: string | null;
  status: boolean;
  category: ServiceCategory;
}

/**
 * Answers are parsed with the contract's schemas, as tolerantly as the product decisions ask (the
 * panel keeps working against any server speaking spec §7): the services list comes bare, under
 * `data` or under `services`; a service may lack its id or createdAt; the answer to a change is
 * read only for its message.
 */
const serviceList = z.preprocess(
  (body) => {
    if (Array.isArray(body)) return { data: body };
    const wrapper = body as { data?: unknown; services?: unknown } | null;
    return wrapper?.data === undefined && wrapper?.services !== undefined ? { data: wrapper.services } : body;
  },
  z.object({ data: z.array(service.partial({ serviceId: true, createdAt: true })) }),
);

const services = client({
  ...servicesApi,
  list: { ...servicesApi.list, responses: { 200: serviceList } },
  create: { ...servicesApi.create, responses: { 201: serviceCreatedResponse.pick({ success: true, message: true }) } },
  update: { ...servicesApi.update, responses: { 200: serviceUpdatedResponse.pick({ success: true, message: true }) } },
});

const toServiceRow = (item: z.output<typeof serviceList>['data'][number]): ServiceRow => ({
  id: item.serviceId !== undefined && Number.isInteger(item.serviceId) && item.serviceId > 0 ? item.serviceId : null,
  serviceType: item.serviceType,
  serviceName: item.serviceName,
  serviceIcon: item.serviceIcon || null,
  status: item.status,
  // Spec §3: BBPS when the description or category says bill, payment or BBPS.
  category: deriveCategory(item.description, item.category),
});

/** The rows of a services list answer read elsewhere; throws when it does not match the contract. */
export function toServiceRows(body: unknown): ServiceRow[] {
  return serviceList.parse(body).data.map(toServiceRow);
}

export const servicesQuery = () =>
  queryOptions({
    queryKey: services.list.key(),
    queryFn: async ({ signal }): Promise<ServiceRow[]> => (await services.list(undefined, { signal })).data.map(toServiceRow),
  });

/** Spec §4: one sample Mobile Recharge service, shown only when loading fails. */
export const SAMPLE_SERVICES: ServiceRow[] = [
  { id: null, serviceType: 'mobile_recharge', serviceName: 'Mobile Recharge', serviceIcon: null, status: true, category: 'Recharge' },
];

export interface ServiceSubmission {
  id: number | null;
  serviceType: string;
  serviceName: string;
  category: ServiceCategory;
  status: boolean;
  /** A newly chosen icon file. */
  file: File | null;
  /** The icon path field: an uploaded icon's path, or '' for none. */
  iconPath: string;
  /** The icon the service had when the form opened. */
  originalIcon: string | null;
}

function formData(s: ServiceSubmission): FormData {
  const form = new FormData();
  if (s.serviceType) form.append('serviceType', s.serviceType);
  form.append('serviceName', s.serviceName);
  form.append('category', s.category);
  form.append('description', s.category);
  form.append('status', String(s.status));
  if (s.file) form.append('serviceIcon', s.file);
  else if (s.id === null && s.iconPath) form.append('existingIcon', s.iconPath);
  return form;
}

/** Spec §7: create is multipart; update is JSON, or multipart when a new icon file goes with it. */
export function useSaveService() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (s: ServiceSubmission) => {
      if (s.id === null) return services.create({ body: formData(s) });
      const params = { serviceId: s.id };
      if (s.file) return services.update({ params, body: formData(s) });
      const body: UpdateServiceBody = {
        serviceType: s.serviceType || undefined,
        serviceName: s.serviceName,
        category: s.category,
        description: s.category,
        status: s.status,
      };
      const icon = s.iconPath || null;
      if (icon !== s.originalIcon) body.serviceIcon = icon;
      return services.update({ params, body });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [servicesApi.list.group] }),
  });
}
