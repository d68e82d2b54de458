import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { permission, permissionResponse, permissionsApi, rolePermissionsApi, type PermissionBody } from '../../../contract/access';
import { client } from '../../lib/api-client';

/** A permission as the screen shows it; `id` is null when the server sent none (spec §5 "missing ids"). */
export interface PermissionRow {
  id: number | null;
  name: string;
  description: string;
  module: string;
}

/**
 * Answers are parsed with the contract's schemas, as tolerantly as the product decisions ask (the
 * panel keeps working against any server speaking spec §7): the list comes bare or under `data`;
 * a permission may lack its id (spec §5: it shows, but editing or deleting it is refused with a
 * message) or its createdAt; the answer to a change is read only for its message.
 */
const permissionList = z.preprocess(
  (body) => (Array.isArray(body) ? { data: body } : body),
  z.object({ data: z.array(permission.partial({ permissionId: true, createdAt: true })) }),
);
const changed = permissionResponse.pick({ success: true, message: true });

const permissions = client({
  ...permissionsApi,
  list: { ...permissionsApi.list, responses: { 200: permissionList } },
  create: { ...permissionsApi.create, responses: { 201: changed } },
  update: { ...permissionsApi.update, responses: { 200: changed } },
});

const toPermissionRow = (item: z.output<typeof permissionList>['data'][number]): PermissionRow => ({
  id: item.permissionId !== undefined && Number.isInteger(item.permissionId) && item.permissionId > 0 ? item.permissionId : null,
  name: item.name,
  description: item.description,
  module: item.module,
});

/** The rows of a permissions list answer read elsewhere; throws when it does not match the contract. */
export function toPermissionRows(body: unknown): PermissionRow[] {
  return permissionList.parse(body).data.map(toPermissionRow);
}

export const permissionsQuery = () =>
  queryOptions({
    queryKey: permissions.list.key(),
    queryFn: async ({ signal }): Promise<PermissionRow[]> => (await permissions.list(undefined, { signal })).data.map(toPermissionRow),
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
    queryClient.invalidateQueries({ queryKey: [permissionsApi.list.group] }),
    queryClient.invalidateQueries({ queryKey: [rolePermissionsApi.list.group] }),
  ]);
}

export function useSavePermission() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: PermissionBody }) =>
      id === null ? permissions.create({ body }) : permissions.update({ params: { id }, body }),
    onSuccess: invalidate,
  });
}

export function useDeletePermission() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: number) => permissions.remove({ params: { id } }),
    onSuccess: invalidate,
  });
}
