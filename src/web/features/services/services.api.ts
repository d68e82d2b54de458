import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { deriveCategory, type ServiceCategory, type UpdateServiceBody } from '../../../contract/services';
import { apiRequest } from '../../lib/api-client';

export interface ServiceRow {
  id: number | null;
  serviceType: string;
  serviceName: string;
  serviceIcon: string | null;
  status: boolean;
  category: ServiceCategory;
}

type Raw = Record<string, unknown>;

/** Spec §7: "services list" — an array, or under data or services. */
export function toServiceRows(body: unknown): ServiceRow[] {
  const wrapper = body as { data?: unknown; services?: unknown } | null;
  const list = Array.isArray(body) ? body : (wrapper?.data ?? wrapper?.services);
  if (!Array.isArray(list)) throw new Error('Invalid response format');
  return list.map((item: Raw) => {
    const id = Number(item.serviceId ?? item.id);
    return {
      id: Number.isInteger(id) && id > 0 ? id : null,
      serviceType: String(item.serviceType ?? ''),
      serviceName: String(item.serviceName ?? ''),
      serviceIcon: typeof item.serviceIcon === 'string' && item.serviceIcon ? item.serviceIcon : null,
      status: item.status !== false,
      category: deriveCategory(item.description as string | undefined, item.category as string | undefined),
    };
  });
}

export const servicesQuery = () =>
  queryOptions({
    queryKey: ['services'],
    queryFn: async ({ signal }) => toServiceRows(await apiRequest<unknown>('/services/getAllServices', { signal })),
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

/** Create is multipart (spec §7); update is JSON, or multipart when a new icon file goes with it. */
export function useSaveService() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (s: ServiceSubmission) => {
      if (s.id === null) return apiRequest('/services/createService', { method: 'POST', body: formData(s) });
      const path = `/services/updateService/${s.id}`;
      if (s.file) return apiRequest(path, { method: 'PUT', body: formData(s) });
      const body: UpdateServiceBody = {
        serviceType: s.serviceType || undefined,
        serviceName: s.serviceName,
        category: s.category,
        description: s.category,
        status: s.status,
      };
      const icon = s.iconPath || null;
      if (icon !== s.originalIcon) body.serviceIcon = icon;
      return apiRequest(path, { method: 'PUT', body });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['services'] }),
  });
}
