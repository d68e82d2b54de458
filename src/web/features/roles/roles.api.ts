import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { role, roleResponse, rolePermissionsApi, rolesApi, type RoleBody } from '../../../contract/access';
import { client } from '../../lib/api-client';

/** A role as the screen shows it; `id` is null when the server sent none (spec §5 "missing ids"). */
export interface RoleRow {
  id: number | null;
  name: string;
  status: boolean;
  /** Accounts of this role sign in with a two-factor code. */
  twoFactorRequired: boolean;
}

/**
 * Answers are parsed with the contract's schemas, as tolerantly as the product decisions ask (the
 * panel keeps working against any server speaking spec §7): the list bare or under `data`; a role
 * may lack its id (spec §5: it shows, but editing or deleting it is refused with a message) or
 * the fields added since; the answer to a change is read only for its message.
 */
const roleList = z.preprocess(
  (body) => (Array.isArray(body) ? { data: body } : body),
  z.object({ data: z.array(role.partial({ roleId: true, twoFactorRequired: true, createdAt: true })) }),
);
const changed = roleResponse.pick({ success: true, message: true });

const roles = client({
  ...rolesApi,
  list: { ...rolesApi.list, responses: { 200: roleList } },
  create: { ...rolesApi.create, responses: { 201: changed } },
  update: { ...rolesApi.update, responses: { 200: changed } },
});

const toRoleRow = (item: z.output<typeof roleList>['data'][number]): RoleRow => ({
  id: item.roleId !== undefined && Number.isInteger(item.roleId) && item.roleId > 0 ? item.roleId : null,
  name: item.name,
  status: item.status,
  twoFactorRequired: item.twoFactorRequired === true,
});

/** The rows of a roles list answer read elsewhere; throws when it does not match the contract. */
export function toRoleRows(body: unknown): RoleRow[] {
  return roleList.parse(body).data.map(toRoleRow);
}

export const rolesQuery = () =>
  queryOptions({
    queryKey: roles.list.key(),
    queryFn: async ({ signal }): Promise<RoleRow[]> => (await roles.list(undefined, { signal })).data.map(toRoleRow),
  });

function useInvalidate() {
  const queryClient = useQueryClient();
  // A renamed or deleted role changes the role-permission list and the staff screen's roles too.
  return () => Promise.all([
    queryClient.invalidateQueries({ queryKey: [rolesApi.list.group] }),
    queryClient.invalidateQueries({ queryKey: [rolePermissionsApi.list.group] }),
    queryClient.invalidateQueries({ queryKey: ['staff'] }),
  ]);
}

export function useSaveRole() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: RoleBody }) =>
      id === null ? roles.create({ body }) : roles.update({ params: { id }, body }),
    onSuccess: invalidate,
  });
}

export function useDeleteRole() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: number) => roles.remove({ params: { id } }),
    onSuccess: invalidate,
  });
}
