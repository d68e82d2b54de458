import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  rolePermissionListResponse, rolePermissionResponse, rolePermissionsApi, type RolePermission,
} from '../../../contract/access';
import { ApiError, client, errorMessage } from '../../lib/api-client';
import { useAuth } from '../auth/auth-context';
import { permissionsQuery, type PermissionRow } from '../permissions/permissions.api';

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

// Spec §7: the answer to a change is read for its success and message only.
const changed = rolePermissionResponse.pick({ success: true, message: true });

const rolePermissions = client({
  ...rolePermissionsApi,
  create: { ...rolePermissionsApi.create, responses: { 201: changed } },
  update: { ...rolePermissionsApi.update, responses: { 200: changed } },
  removePermission: { ...rolePermissionsApi.removePermission, responses: { 200: changed } },
});

/** The list's query key; every change refreshes the whole feature ([group]). */
const LIST_KEY = rolePermissions.list.key();
const FEATURE_KEY = [rolePermissionsApi.list.group];

/** Spec §3: a blank roleName shows as 'Role {roleId}', a blank permissionName as 'Permission Group'. */
const toRolePermissionRow = (item: RolePermission): RolePermissionRow => ({
  key: item._id,
  roleId: item.roleId,
  roleName: item.roleName || `Role ${item.roleId}`,
  permissionName: item.permissionName || 'Permission Group',
  permissionIds: item.permissionIds,
  status: item.status,
  createdAt: item.createdAt,
});

/** The rows of a list answer read elsewhere; throws when it does not match the contract. */
export function toRolePermissionRows(body: unknown): RolePermissionRow[] {
  return rolePermissionListResponse.parse(body).data.map(toRolePermissionRow);
}

export const rolePermissionsQuery = () =>
  queryOptions({
    queryKey: LIST_KEY,
    queryFn: async ({ signal }): Promise<RolePermissionRow[]> =>
      (await rolePermissions.list(undefined, { signal })).data.map(toRolePermissionRow),
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

/** Optimistic change of the cached list: applied at once, restored if the server refuses. */
function optimistic<V>(queryClient: QueryClient, change: (rows: RolePermissionRow[], vars: V) => RolePermissionRow[]) {
  return {
    onMutate: async (vars: V) => {
      await queryClient.cancelQueries({ queryKey: LIST_KEY });
      const previous = queryClient.getQueryData<RolePermissionRow[]>(LIST_KEY);
      if (previous) queryClient.setQueryData(LIST_KEY, change(previous, vars));
      return { previous };
    },
    onError: (_err: unknown, _vars: V, context: { previous?: RolePermissionRow[] } | undefined) => {
      if (context?.previous) queryClient.setQueryData(LIST_KEY, context.previous);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: FEATURE_KEY }),
  };
}

export function useCreateRolePermission() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewRolePermission) => rolePermissions.create({ body }),
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
      rolePermissions.update({ params: { roleId }, body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: FEATURE_KEY }),
  });
}

export function useRemovePermissionFromRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ roleId, permissionId }: { roleId: number; permissionId: number }) =>
      rolePermissions.removePermission({ params: { roleId, permissionId } }),
    ...optimistic<{ roleId: number; permissionId: number }>(queryClient, (rows, { roleId, permissionId }) =>
      rows.map((r) => (r.roleId === roleId ? { ...r, permissionIds: r.permissionIds.filter((id) => id !== permissionId) } : r)),
    ),
  });
}

export function useDeleteRolePermissions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (roleId: number) => rolePermissions.remove({ params: { roleId } }),
    ...optimistic<number>(queryClient, (rows, roleId) => rows.filter((r) => r.roleId !== roleId)),
  });
}

/** Spec §8: the server's message when present, the screen's text otherwise; non-HTTP errors are unexpected. */
export function failureMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError ? errorMessage(error, fallback) : 'An unexpected error occurred';
}

/** A permission of the catalogue, by id. */
export type PermissionCatalogue = ReadonlyMap<number, PermissionRow>;

/**
 * The permission catalogue by id (issue 24: names, not numbers), read with permissions_view; null
 * while it loads, when it cannot be read, or without that permission: the screen then shows and
 * takes ids only, as the spec's screen does.
 */
export function usePermissionCatalogue(): PermissionCatalogue | null {
  const { permissions } = useAuth();
  const query = useQuery({ ...permissionsQuery(), enabled: permissions.includes('permissions_view'), retry: false });
  if (!query.data) return null;
  return new Map(query.data.flatMap((p) => (p.id === null ? [] : [[p.id, p] as const])));
}

/** "users_view, users_edit" for a set of ids; an id the catalogue lacks shows as "#id". */
export function permissionNames(ids: readonly number[], catalogue: PermissionCatalogue): string {
  return ids.map((id) => catalogue.get(id)?.name ?? `#${id}`).join(', ');
}
