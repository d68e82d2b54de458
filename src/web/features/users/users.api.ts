import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { ranksApi, type Rank } from '../../../contract/ranks';
import { usersApi, type CreateUserBody, type UpdateUserBody, type User, type UsersPage } from '../../../contract/users';
import { client, isInvalidAnswer, type CallOptions } from '../../lib/api-client';
import { refreshNetwork } from '../network/network.api';

const users = client(usersApi);
const ranks = client(ranksApi);

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

/** An answer that arrived but does not match the contract (the client's parse failed). */

/** Runs a call; an answer of the wrong shape becomes `invalid()`, the screen's own wording (spec §8). */
async function orInvalid<T>(call: Promise<T>, invalid: () => Error): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw isInvalidAnswer(error) ? invalid() : error;
  }
}

type ListQuery = { search?: string; level?: string; rankId?: string; page?: number; limit?: number };

const listInput = (query: ListQuery) => ({ query });

function fetchUsers(query: ListQuery, options: CallOptions): Promise<UsersPage> {
  return orInvalid(users.list(listInput(query), options), () => new InvalidUsersFormat('Invalid data format from API'));
}

export const usersListQuery = (f: UserFilters, page: number) => {
  const query = { search: f.userId ?? undefined, level: f.level ?? undefined, rankId: f.rankId ?? undefined, page, limit: USERS_PAGE_SIZE };
  return queryOptions({
    queryKey: users.list.key(listInput(query)),
    queryFn: ({ signal }) => fetchUsers(query, { signal }),
    placeholderData: keepPreviousData,
  });
};

/** The searchable name filter: the first matches of what the operator typed. */
export const userNamesQuery = (search: string) =>
  queryOptions({
    queryKey: users.list.key(listInput({ search, limit: 20 })),
    queryFn: async ({ signal }) => (await fetchUsers({ search, limit: 20 }, { signal })).users,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });

/** 'All Ranks': ranks whose status is not false, sorted by name (spec §2). */
export const rankOptionsQuery = () =>
  queryOptions({
    queryKey: [usersApi.list.group, 'rank-options'],
    queryFn: async ({ signal }): Promise<Rank[]> =>
      (await ranks.list(undefined, { signal })).data.filter((r) => r.status !== false).sort((a, b) => a.name.localeCompare(b.name)),
    staleTime: 60_000,
  });

/** Sends only the optional fields that are filled (spec §5). */
function withoutBlanks<T extends object>(body: T): T {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== '' && v !== undefined)) as T;
}

/** Every member change can change a network too (a new referral, a name, a member leaving). */
function useRefreshMembers() {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: [usersApi.list.group] }), refreshNetwork(queryClient)]);
}

export function useCreateUser() {
  const refresh = useRefreshMembers();
  return useMutation({
    mutationFn: async (body: CreateUserBody): Promise<User> =>
      (await orInvalid(users.create({ body: withoutBlanks(body) }), () => new Error('Invalid response format from server - no user data found'))).user,
    onSuccess: refresh,
  });
}

export function useUpdateUser() {
  const refresh = useRefreshMembers();
  return useMutation({
    mutationFn: async ({ userId, body }: { userId: number; body: UpdateUserBody }): Promise<User> =>
      (await orInvalid(users.update({ params: { id: userId }, body }), () => new Error('Invalid response format'))).updatedUser,
    onSuccess: refresh,
  });
}

export function useDeleteUser() {
  const refresh = useRefreshMembers();
  return useMutation({
    mutationFn: (userId: number) => users.remove({ params: { userId } }),
    onSuccess: refresh,
  });
}
