import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { RoleBody } from '../../../contract/access';
import { apiRequest } from '../../lib/api-client';

/** A role as the screen shows it; `id` is null when the server sent none (spec §5 "missing ids"). */
export interface RoleRow {
  id: number | null;
  name: string;
  status: boolean;
  /** Accounts of this role sign in with a two-factor code. */
  twoFactorRequired: boolean;
}

type Raw = Record<string, unknown>;

export function toRoleRows(body: unknown): RoleRow[] {
  const list = Array.isArray(body) ? body : (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(list)) throw new Error('Invalid response format');
  return list.map((item: Raw) => {
    const id = Number(item.roleId ?? item.id ?? item._id);
    return {
      id: Number.isInteger(id) && id > 0 ? id : null,
      name: String(item.name ?? ''),
      status: item.status !== false,
      twoFactorRequired: item.twoFactorRequired === true,
    };
  });
}

export const rolesQuery = () =>
  queryOptions({
    queryKey: ['roles'],
    queryFn: async ({ signal }) => toRoleRows(await apiRequest<unknown>('/GetAllRoles', { signal })),
  });

function useInvalidate() {
  const queryClient = useQueryClient();
  // A renamed or deleted role changes the role-permission list too.
  return () => Promise.all([
    queryClient.invalidateQueries({ queryKey: ['roles'] }),
    queryClient.invalidateQueries({ queryKey: ['role-permissions'] }),
  ]);
}

export function useSaveRole() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: RoleBody }) =>
      id === null
        ? apiRequest('/CreateRoles', { method: 'POST', body })
        : apiRequest(`/updateRole/${id}`, { method: 'PUT', body }),
    onSuccess: invalidate,
  });
}

export function useDeleteRole() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: number) => apiRequest(`/deleteRole/${id}`, { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}
