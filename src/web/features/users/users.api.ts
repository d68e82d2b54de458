import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ranksApi, type Rank } from '../../../contract/ranks';
import {
  BULK_CHUNK_MAX, LEVELS, user, usersApi, type BulkResult, type CreateUserBody, type UpdateUserBody, type User, type UserSort,
} from '../../../contract/users';
import { client, isInvalidAnswer, type CallOptions } from '../../lib/api-client';
import { refreshNetwork } from '../network/network.api';

/** A member as the list shows them: spec §2 shows 'N/A' for a missing level. */
export type ListedUser = Omit<User, 'level'> & { level: number | null };

/**
 * The users list as the spec lets its client read it (§7: "users array (other screens also accept
 * users, data or results)", §2: a missing level shows 'N/A'): the members bare, or under `users`,
 * `data` or `results`; a server that does not page answers every member at once (no total).
 * Anything else is still an invalid answer.
 */
const usersList = z.preprocess(
  (body) => {
    if (Array.isArray(body)) return { users: body };
    if (!body || typeof body !== 'object' || 'users' in body) return body;
    const { data, results } = body as { data?: unknown; results?: unknown };
    return Array.isArray(data) ? { ...body, users: data } : Array.isArray(results) ? { ...body, users: results } : body;
  },
  z.object({
    users: z.array(user.extend({ level: z.number().nullable().optional().transform((v) => v ?? null) })),
    total: z.number().optional(),
  }),
);

const users = client({ ...usersApi, list: { ...usersApi.list, responses: { 200: usersList } } });
const ranks = client(ranksApi);

export interface UsersPage {
  users: ListedUser[];
  /** Every match, not just this page. */
  total: number;
}

export const USERS_PAGE_SIZE = 25;

export interface UserFilters {
  /** The user picked in the name filter (a user id), or null for 'All Users'. */
  userId: string | null;
  level: string | null;
  rankId: string | null;
  /** The order (`fullName`, `-level`); the default, newest first, is not sent. */
  sort: string;
}

export const DEFAULT_SORT = '-userId';

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

type ListQuery = { search?: string; level?: string; rankId?: string; sort?: UserSort; page?: number; limit?: number };

const listInput = (query: ListQuery) => ({ query });

async function fetchUsers(query: ListQuery, options: CallOptions): Promise<UsersPage> {
  const answer = await orInvalid(users.list(listInput(query), options), () => new InvalidUsersFormat('Invalid data format from API'));
  return { users: answer.users, total: answer.total ?? answer.users.length };
}

export const usersListQuery = (f: UserFilters, page: number) => {
  const query: ListQuery = {
    search: f.userId ?? undefined, level: f.level ?? undefined, rankId: f.rankId ?? undefined,
    sort: f.sort === DEFAULT_SORT ? undefined : (f.sort as UserSort), page, limit: USERS_PAGE_SIZE,
  };
  return queryOptions({
    queryKey: users.list.key(listInput(query)),
    queryFn: ({ signal }) => fetchUsers(query, { signal }),
    placeholderData: keepPreviousData,
    // The page the sidebar link started loading when it was pressed (users-page.tsx `prefetch`)
    // is shown as it arrives, not asked for again as the screen mounts a moment later.
    staleTime: 2_000,
  });
};

/**
 * The Level filter's levels: 1 to 10 (spec §9) and every other level a member holds (issue 15
 * item 6: members referred below level 10). A server without the call offers 1 to 10.
 */
export const levelOptionsQuery = () =>
  queryOptions({
    queryKey: users.levels.key(),
    queryFn: async ({ signal }): Promise<number[]> => {
      const held = await users.levels(undefined, { signal }).then((a) => a.levels, () => []);
      return [...new Set<number>([...LEVELS, ...held])].sort((a, b) => a - b);
    },
    staleTime: 60_000,
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

/** The list's filter without page and order: the export's and "every member the filter matches"'s query. */
export const usersFilterInput = (f: UserFilters) => ({
  query: { search: f.userId ?? undefined, level: f.level ?? undefined, rankId: f.rankId ?? undefined },
});

/** Every member id the filter matches (the server refuses more than it can take, with a message). */
export async function matchingUserIds(f: UserFilters): Promise<number[]> {
  return (await users.ids(usersFilterInput(f))).ids;
}

/** The members per bulk request: the server takes at most BULK_CHUNK_MAX. */
export const BULK_CHUNK = Math.min(100, BULK_CHUNK_MAX);

/** Activates or deactivates one chunk of members, under its stable Idempotency-Key. */
export async function setUsersStatus(ids: number[], status: boolean, idempotencyKey: string): Promise<BulkResult> {
  return users.bulkStatus({ body: { ids, status } }, { idempotencyKey });
}

/** After a bulk change: the list and the member pages are read again. */
export const useRefreshAfterBulk = () => useRefreshMembers();

export function useDeleteUser() {
  const refresh = useRefreshMembers();
  return useMutation({
    mutationFn: (userId: number) => users.remove({ params: { userId } }),
    onSuccess: refresh,
  });
}
