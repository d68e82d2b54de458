import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { ApiError, apiRequest, errorMessage } from '../../lib/api-client';

export interface RolePermissionRow {
  key: string;
  roleId: number | null;
  roleName: string;
  permissionName: string;
  permissionIds: number[];
  status: boolean;
  createdAt: string | null;
  /** A temporary row of an optimistic create, until the server answers. */
  pending?: boolean;
}

/** Spec §9: the list is polled every 10 seconds. */
export const ROLE_PERMISSIONS_POLL_MS = 10_000;
const KEY = ['role-permissions'];

type Raw = Record<string, unknown>;

function ids(value: unknown): number[] {
  const list = Array.isArray(value) ? value : value == null ? [] : [value];
  return list.map(Number).filter((n) => Number.isInteger(n) && n > 0);
}

/** Spec §3: roleName falls back to 'Role {roleId}', permissionName to 'Permission Group'. */
export function toRolePermissionRows(body: unknown): RolePermissionRow[] {
  const list = Array.isArray(body) ? body : (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(list)) throw new Error('Invalid response format');
  return list.map((item: Raw, i) => {
    const roleId = Number(item.roleId);
    const valid = Number.isInteger(roleId) && roleId > 0;
    return {
      key: String(item._id ?? (valid ? `role-${roleId}` : `row-${i}`)),
      roleId: valid ? roleId : null,
      roleName: String(item.roleName || (valid ? `Role ${roleId}` : 'Role')),
      permissionName: String(item.permissionName || 'Permission Group'),
      permissionIds: ids(item.permissionIds ?? item.permissionId),
      status: item.status !== false,
      createdAt: typeof item.createdAt === 'string' ? item.createdAt : null,
    };
  });
}

export const rolePermissionsQuery = () =>
  queryOptions({
    queryKey: KEY,
    queryFn: async ({ signal }) =>
      toRolePermissionRows(await apiRequest<unknown>('/role-permissions/getAllRolePermissions', { signal })),
    refetchInterval: ROLE_PERMISSIONS_POLL_MS,
  });

/** The body of createPermissionForRole (spec §7). */
export interface NewRolePermission {
  roleId: number;
  roleName?: string;
  permissionName?: string;
  permissionIds: number[];
  status: boolean;
}

/** The body of updatePermissionForRole; the toggle sends only permissionIds and status. */
export type RolePermissionChange = Partial<Omit<NewRolePermission, 'roleId'>>;

interface Answer {
  message?: string;
}

/** Optimistic change of the cached list: applied at once, restored if the server refuses. */
function optimistic<V>(queryClient: QueryClient, change: (rows: RolePermissionRow[], vars: V) => RolePermissionRow[]) {
  return {
    onMutate: async (vars: V) => {
      await queryClient.cancelQueries({ queryKey: KEY });
      const previous = queryClient.getQueryData<RolePermissionRow[]>(KEY);
      if (previous) queryClient.setQueryData(KEY, change(previous, vars));
      return { previous };
    },
    onError: (_err: unknown, _vars: V, context: { previous?: RolePermissionRow[] } | undefined) => {
      if (context?.previous) queryClient.setQueryData(KEY, context.previous);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: KEY }),
  };
}

export function useCreateRolePermission() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewRolePermission) =>
      apiRequest<Answer>('/role-permissions/createPermissionForRole', { method: 'POST', body }),
    ...optimistic<NewRolePermission>(queryClient, (rows, body) => [
      ...rows,
      {
        key: `temp-${Date.now()}`,
        roleId: body.roleId,
        roleName: body.roleName || `Role ${body.roleId}`,
        permissionName: body.permissionName || 'Permission Group',
        permissionIds: body.permissionIds,
        status: body.status,
        createdAt: new Date().toISOString(),
        pending: true,
      },
    ]),
  });
}

export function useUpdateRolePermission() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ roleId, body }: { roleId: number; body: RolePermissionChange }) =>
      apiRequest<Answer>(`/role-permissions/updatePermissionForRole/${roleId}`, { method: 'PUT', body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: KEY }),
  });
}

export function useRemovePermissionFromRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ roleId, permissionId }: { roleId: number; permissionId: number }) =>
      apiRequest<Answer>(`/role-permissions/removePermissionFromRole/${roleId}/${permissionId}`, { method: 'DELETE' }),
    ...optimistic<{ roleId: number; permissionId: number }>(queryClient, (rows, { roleId, permissionId }) =>
      rows.map((r) => (r.roleId === roleId ? { ...r, permissionIds: r.permissionIds.filter((id) => id !== permissionId) } : r)),
    ),
  });
}

export function useDeleteRolePermissions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (roleId: number) => apiRequest<Answer>(`/role-permissions/deleteRoleById/${roleId}`, { method: 'DELETE' }),
    ...optimistic<number>(queryClient, (rows, roleId) => rows.filter((r) => r.roleId !== roleId)),
  });
}

/** Spec §8: the server's message when present, the screen's text otherwise; non-HTTP errors are unexpected. */
export function failureMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError ? errorMessage(error, fallback) : 'An unexpected error occurred';
}
