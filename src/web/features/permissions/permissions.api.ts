import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { PermissionBody } from '../../../contract/access';
import { apiRequest } from '../../lib/api-client';

/** A permission as the screen shows it; `id` is null when the server sent none (spec §5 "missing ids"). */
export interface PermissionRow {
  id: number | null;
  name: string;
  description: string;
  module: string;
}

type Raw = Record<string, unknown>;

function idOf(item: Raw): number | null {
  const value = Number(item.permissionId ?? item.id ?? item._id);
  return Number.isInteger(value) && value > 0 ? value : null;
}

/** Spec §7: the list comes as an array or under `data`. */
export function toPermissionRows(body: unknown): PermissionRow[] {
  const list = Array.isArray(body) ? body : (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(list)) throw new Error('Invalid response format');
  return list.map((item: Raw) => ({
    id: idOf(item),
    name: String(item.name ?? ''),
    description: String(item.description ?? ''),
    module: String(item.module ?? ''),
  }));
}

export const permissionsQuery = () =>
  queryOptions({
    queryKey: ['permissions'],
    queryFn: async ({ signal }) => toPermissionRows(await apiRequest<unknown>('/permissions/getPermissions', { signal })),
  });

/** Spec §4: shown only when loading fails, badged and read-only. */
export const SAMPLE_PERMISSIONS: PermissionRow[] = [
  { id: null, name: 'users_view', description: 'View users', module: 'Users' },
  { id: null, name: 'users_create', description: 'Create users', module: 'Users' },
  { id: null, name: 'users_edit', description: 'Edit users', module: 'Users' },
  { id: null, name: 'users_delete', description: 'Delete users', module: 'Users' },
  { id: null, name: 'reports_view', description: 'View reports', module: 'Reports' },
];

function useInvalidate() {
  const queryClient = useQueryClient();
  // Deleting a permission also takes it out of every role's set.
  return () => Promise.all([
    queryClient.invalidateQueries({ queryKey: ['permissions'] }),
    queryClient.invalidateQueries({ queryKey: ['role-permissions'] }),
  ]);
}

export function useSavePermission() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: PermissionBody }) =>
      id === null
        ? apiRequest('/permissions/createPermission', { method: 'POST', body })
        : apiRequest(`/permissions/updatePermission/${id}`, { method: 'PUT', body }),
    onSuccess: invalidate,
  });
}

export function useDeletePermission() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: number) => apiRequest(`/permissions/deletePermission/${id}`, { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}
