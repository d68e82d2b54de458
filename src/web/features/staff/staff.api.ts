import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  staffApi, type InviteStaffBody, type StaffPage, type StaffQuery, type StaffResponse, type StaffRole, type UpdateStaffBody,
} from '../../../contract/staff';
import { client } from '../../lib/api-client';

export const STAFF_PAGE_SIZE = 25;

export interface StaffFilters {
  q: string;
  /** '' = all. */
  status: '' | 'active' | 'inactive';
  sort?: StaffQuery['sort'];
}

const staff = client(staffApi);

const queryOf = (f: StaffFilters, page: number): StaffQuery => ({
  page,
  limit: STAFF_PAGE_SIZE,
  ...(f.q.trim() ? { q: f.q.trim() } : {}),
  ...(f.status ? { status: f.status } : {}),
  ...(f.sort ? { sort: f.sort } : {}),
});

export const staffListQuery = (f: StaffFilters, page: number) =>
  queryOptions({
    queryKey: staff.list.key({ query: queryOf(f, page) }),
    queryFn: ({ signal }): Promise<StaffPage> => staff.list({ query: queryOf(f, page) }, { signal }),
    placeholderData: keepPreviousData,
  });

/** The roles this screen may assign (no roles_view needed). */
export const staffRolesQuery = () =>
  queryOptions({
    queryKey: staff.roles.key(),
    queryFn: async ({ signal }): Promise<StaffRole[]> => (await staff.roles(undefined, { signal })).data,
    staleTime: 30_000,
  });

/** Every change answers the account as it now is, with the server's sentence for the banner. */
function useStaffMutation<Vars>(request: (vars: Vars) => Promise<StaffResponse>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [staffApi.list.group] }),
  });
}

export const useInviteStaff = () => useStaffMutation((body: InviteStaffBody) => staff.invite({ body }));

export const useResendInvite = () => useStaffMutation((userId: number) => staff.resendInvite({ params: { userId } }));

export const useUpdateStaff = () =>
  useStaffMutation(({ userId, body }: { userId: number; body: UpdateStaffBody }) => staff.update({ params: { userId }, body }));

export const useChangeStaffRole = () =>
  useStaffMutation(({ userId, roleId }: { userId: number; roleId: number }) => staff.changeRole({ params: { userId }, body: { roleId } }));

export const useSetStaffStatus = () =>
  useStaffMutation(({ userId, status }: { userId: number; status: boolean }) => staff.setStatus({ params: { userId }, body: { status } }));

export const useSignOutStaff = () => useStaffMutation((userId: number) => staff.signOut({ params: { userId } }));
