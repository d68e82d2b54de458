import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { banksResponse, type BankAccount } from '../../../contract/banks';
import { usersPage, type UsersPage } from '../../../contract/users';
import { ApiError, apiRequest } from '../../lib/api-client';

export const MEMBERS_PAGE_SIZE = 25;

/** Thrown when an answer has an unexpected shape: the screen says 'Unexpected API response format'. */
export class UnexpectedFormat extends Error {}

export const bankMembersQuery = (search: string, page: number) =>
  queryOptions({
    queryKey: ['banks', 'members', search, page],
    queryFn: async ({ signal }): Promise<UsersPage> => {
      const q = new URLSearchParams({ page: String(page), limit: String(MEMBERS_PAGE_SIZE) });
      if (search) q.set('search', search);
      const parsed = usersPage.safeParse(await apiRequest<unknown>(`/users/getAllusers?${q}`, { signal }));
      if (!parsed.success) throw new UnexpectedFormat('Unexpected API response format');
      return parsed.data;
    },
    placeholderData: keepPreviousData,
  });

export const bankDetailsQuery = (userId: number) =>
  queryOptions({
    queryKey: ['banks', 'of', userId],
    queryFn: async ({ signal }): Promise<BankAccount[]> => {
      try {
        const parsed = banksResponse.safeParse(await apiRequest<unknown>(`/banks/getBanksByUserId/${userId}`, { signal }));
        if (!parsed.success) throw new UnexpectedFormat('Unexpected API response format');
        return parsed.data.data;
      } catch (err) {
        // Spec §8: a 404 on bank details shows an empty modal.
        if (err instanceof ApiError && err.status === 404) return [];
        throw err;
      }
    },
  });
