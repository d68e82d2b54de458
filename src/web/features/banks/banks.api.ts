import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { banksApi, type BankAccount } from '../../../contract/banks';
import { usersApi, type UsersPage } from '../../../contract/users';
import { ApiError, client } from '../../lib/api-client';

const banks = client(banksApi);
const users = client(usersApi);

export const MEMBERS_PAGE_SIZE = 25;

/** An answer of the wrong shape: the screen says 'Unexpected API response format' (spec §8). */

/** The members to pick from: the users list, searched. */
export const bankMembersQuery = (search: string, page: number) => {
  const input = { query: { page, limit: MEMBERS_PAGE_SIZE, search: search || undefined } };
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
