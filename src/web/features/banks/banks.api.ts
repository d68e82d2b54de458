import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { banksApi, type BankAccount, type createBankBody, type updateBankBody } from '../../../contract/banks';
import { USER_SORTS, usersApi, type UserSort, type UsersPage } from '../../../contract/users';
import { ApiError, client } from '../../lib/api-client';

const banks = client(banksApi);
const users = client(usersApi);

export const MEMBERS_PAGE_SIZE = 25;

/** An answer of the wrong shape: the screen says 'Unexpected API response format' (spec §8). */

/** The member list's default order (the users list's): newest members first. */
export const DEFAULT_MEMBER_SORT: UserSort = '-userId';

/** A users-list order of the column key, if the users list offers it ('fullName' once it does). */
export function memberSortKey(key: string): string | undefined {
  return (USER_SORTS as readonly string[]).includes(key) ? key : undefined;
}

/** An order from the address, if the users list knows it; else the default. */
export const memberSort = (value: string): UserSort => ((USER_SORTS as readonly string[]).includes(value) ? (value as UserSort) : DEFAULT_MEMBER_SORT);

/** The members to pick from: the users list, searched and sorted by the server. */
export const bankMembersQuery = (search: string, page: number, sort: string = DEFAULT_MEMBER_SORT) => {
  const input = { query: { page, limit: MEMBERS_PAGE_SIZE, search: search || undefined, sort: memberSort(sort) } };
  return queryOptions({
    queryKey: users.list.key(input),
    queryFn: ({ signal }): Promise<UsersPage> => users.list(input, { signal }),
    placeholderData: keepPreviousData,
  });
};

export const bankDetailsQuery = (userId: number) => {
  const input = { params: { userId } };
  return queryOptions({
    queryKey: banks.ofUser.key(input),
    queryFn: async ({ signal }): Promise<BankAccount[]> => {
      try {
        return (await banks.ofUser(input, { signal })).data;
      } catch (err) {
        // Spec §8: a 404 on bank details shows an empty modal.
        if (err instanceof ApiError && err.status === 404) return [];
        throw err;
      }
    },
  });
};

export type NewBankAccount = z.input<typeof createBankBody>;
export type BankAccountChanges = z.input<typeof updateBankBody>;

/** After any change the member's accounts are read again (the primary may have moved). */
function useRefreshBanks() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: [banksApi.ofUser.group] });
}

export function useCreateBank() {
  const refresh = useRefreshBanks();
  return useMutation({ mutationFn: (body: NewBankAccount) => banks.create({ body }), onSuccess: refresh });
}

export function useUpdateBank() {
  const refresh = useRefreshBanks();
  return useMutation({
    mutationFn: ({ bankId, body }: { bankId: number; body: BankAccountChanges }) => banks.update({ params: { id: bankId }, body }),
    onSuccess: refresh,
  });
}

export function useDeleteBank() {
  const refresh = useRefreshBanks();
  return useMutation({ mutationFn: (bankId: number) => banks.remove({ params: { id: bankId } }), onSuccess: refresh });
}
