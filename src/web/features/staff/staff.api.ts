import type { z } from 'zod';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  staffPage, staffResponse, staffRolesResponse,
  type InviteStaffBody, type StaffPage, type StaffResponse, type StaffRole, type UpdateStaffBody,
} from '../../../contract/staff';
import { apiRequest } from '../../lib/api-client';

export const STAFF_PAGE_SIZE = 25;

export interface StaffFilters {
  q: string;
  /** '' = all. */
  status: '' | 'active' | 'inactive';
}

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new Error('Invalid data format from API');
  return parsed.data;
}

export const staffKeys = {
  all: ['staff'] as const,
  list: (f: StaffFilters, page: number) => ['staff', 'list', f, page] as const,
  roles: ['staff', 'roles'] as const,
};

export const staffListQuery = (f: StaffFilters, page: number) =>
  queryOptions({
    queryKey: staffKeys.list(f, page),
    queryFn: async ({ signal }): Promise<StaffPage> => {
      const q = new URLSearchParams({ page: String(page), limit: String(STAFF_PAGE_SIZE) });
      if (f.q.trim()) q.set('q', f.q.trim());
      if (f.status) q.set('status', f.status);
      return parse(staffPage, await apiRequest<unknown>(`/staff?${q}`, { signal }));
    },
    placeholderData: keepPreviousData,
  });

/** The roles this screen may assign (no roles_view needed). */
export const staffRolesQuery = () =>
  queryOptions({
    queryKey: staffKeys.roles,
    queryFn: async ({ signal }): Promise<StaffRole[]> => parse(staffRolesResponse, await apiRequest<unknown>('/staff/roles', { signal })).data,
    staleTime: 30_000,
  });

/** Every change answers the account as it now is, with the server's sentence for the banner. */
function useStaffMutation<Vars>(request: (vars: Vars) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (vars: Vars): Promise<StaffResponse> => parse(staffResponse, await request(vars)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: staffKeys.all }),
  });
}

export const useInviteStaff = () =>
  useStaffMutation((body: InviteStaffBody) => apiRequest('/staff/invite', { method: 'POST', body }));

export const useResendInvite = () =>
  useStaffMutation((userId: number) => apiRequest(`/staff/${userId}/invite`, { method: 'POST' }));

export const useUpdateStaff = () =>
  useStaffMutation(({ userId, body }: { userId: number; body: UpdateStaffBody }) => apiRequest(`/staff/${userId}`, { method: 'PUT', body }));

export const useChangeStaffRole = () =>
  useStaffMutation(({ userId, roleId }: { userId: number; roleId: number }) =>
    apiRequest(`/staff/${userId}/role`, { method: 'PUT', body: { roleId } }));

export const useSetStaffStatus = () =>
  useStaffMutation(({ userId, status }: { userId: number; status: boolean }) =>
    apiRequest(`/staff/${userId}/status`, { method: 'PUT', body: { status } }));

export const useSignOutStaff = () =>
  useStaffMutation((userId: number) => apiRequest(`/staff/${userId}/sign-out`, { method: 'POST' }));
