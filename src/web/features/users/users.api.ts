import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { ranksResponse, type Rank } from '../../../contract/ranks';
import {
  createdUserResponse, downlineResponse, downlineTreeResponse, updatedUserResponse, usersPage,
  type CreateUserBody, type DownlineResponse, type DownlineTree, type UpdateUserBody, type User, type UsersPage,
} from '../../../contract/users';
import { apiRequest } from '../../lib/api-client';

export const USERS_PAGE_SIZE = 25;

export interface UserFilters {
  /** The user picked in the name filter (a user id), or null for 'All Users'. */
  userId: string | null;
  level: string | null;
  rankId: string | null;
}

export const NO_FILTERS: UserFilters = { userId: null, level: null, rankId: null };

export const hasFilters = (f: UserFilters) => f.userId !== null || f.level !== null || f.rankId !== null;

/** Thrown when the server answers something that is not a users page. */
export class InvalidUsersFormat extends Error {}

function listPath(params: Record<string, string | number | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== '') q.set(k, String(v));
  return `/users/getAllusers?${q}`;
}

async function fetchUsers(params: Record<string, string | number | null | undefined>, signal: AbortSignal): Promise<UsersPage> {
  const body = await apiRequest<unknown>(listPath(params), { signal });
  const parsed = usersPage.safeParse(body);
  if (!parsed.success) throw new InvalidUsersFormat('Invalid data format from API');
  return parsed.data;
}

export const usersKeys = {
  all: ['users'] as const,
  list: (f: UserFilters, page: number) => ['users', 'list', f, page] as const,
  names: (search: string) => ['users', 'names', search] as const,
  downline: (userId: number, page: number) => ['users', 'downline', userId, page] as const,
  tree: (userId: number) => ['users', 'tree', userId] as const,
};

export const usersListQuery = (f: UserFilters, page: number) =>
  queryOptions({
    queryKey: usersKeys.list(f, page),
    queryFn: ({ signal }) =>
      fetchUsers({ search: f.userId, level: f.level, rankId: f.rankId, page, limit: USERS_PAGE_SIZE }, signal),
    placeholderData: keepPreviousData,
  });

/** The searchable name filter: the first matches of what the operator typed. */
export const userNamesQuery = (search: string) =>
  queryOptions({
    queryKey: usersKeys.names(search),
    queryFn: async ({ signal }) => (await fetchUsers({ search, limit: 20 }, signal)).users,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });

/** 'All Ranks': ranks whose status is not false, sorted by name (spec §2). */
export const rankOptionsQuery = () =>
  queryOptions({
    queryKey: ['users', 'rank-options'],
    queryFn: async ({ signal }): Promise<Rank[]> => {
      const parsed = ranksResponse.safeParse(await apiRequest<unknown>('/ranks/getAllRank', { signal }));
      if (!parsed.success) throw new Error('Invalid data format from API');
      return parsed.data.data.filter((r) => r.status !== false).sort((a, b) => a.name.localeCompare(b.name));
    },
    staleTime: 60_000,
  });

export const DOWNLINE_PAGE_SIZE = 10;

export class DownlineFormatError extends Error {}

export const downlineQuery = (userId: number, page: number) =>
  queryOptions({
    queryKey: usersKeys.downline(userId, page),
    queryFn: async ({ signal }): Promise<DownlineResponse> => {
      const body = await apiRequest<unknown>(`/users/downline?userId=${userId}&page=${page}&limit=${DOWNLINE_PAGE_SIZE}`, { signal });
      const parsed = downlineResponse.safeParse(body);
      if (!parsed.success) throw new DownlineFormatError('Could not retrieve downline data in the expected format.');
      return parsed.data;
    },
    placeholderData: keepPreviousData,
  });

export const downlineTreeQuery = (userId: number) =>
  queryOptions({
    queryKey: usersKeys.tree(userId),
    queryFn: async ({ signal }): Promise<DownlineTree> => {
      const body = await apiRequest<unknown>(`/users/downline-tree?userId=${userId}&depth=10&limit=20`, { signal });
      const parsed = downlineTreeResponse.safeParse(body);
      if (!parsed.success) throw new Error('Invalid data format from API');
      return parsed.data;
    },
  });

/** Sends only the optional fields that are filled (spec §5). */
function withoutBlanks<T extends object>(body: T): T {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== '' && v !== undefined)) as T;
}

export function useCreateUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateUserBody): Promise<User> => {
      const parsed = createdUserResponse.safeParse(await apiRequest<unknown>('/users/register', { method: 'POST', body: withoutBlanks(body) }));
      if (!parsed.success) throw new Error('Invalid response format from server - no user data found');
      return parsed.data.user;
    },
    onSuccess: () => client.invalidateQueries({ queryKey: usersKeys.all }),
  });
}

export function useUpdateUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ userId, body }: { userId: number; body: UpdateUserBody }): Promise<User> => {
      const parsed = updatedUserResponse.safeParse(
        await apiRequest<unknown>(`/users/updateByUserId/${userId}`, { method: 'PUT', body }),
      );
      if (!parsed.success) throw new Error('Invalid response format');
      return parsed.data.updatedUser;
    },
    onSuccess: () => client.invalidateQueries({ queryKey: usersKeys.all }),
  });
}

export function useDeleteUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (userId: number) => apiRequest<unknown>(`/users/deleteByUserId/${userId}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: usersKeys.all }),
  });
}
