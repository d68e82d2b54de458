import { infiniteQueryOptions, keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import { MAX_TREE_DEPTH, networkApi, type DownlineResponse, type DownlineTree, type MemberRef, type NetworkChildren } from '../../../contract/network';
import { usersApi, type User } from '../../../contract/users';
import { client } from '../../lib/api-client';

const network = client(networkApi);
const users = client(usersApi);

/** Children fetched per "load more" of one tree node: never the whole network. */
export const CHILDREN_PAGE_SIZE = 20;
/** Direct referrals per page of the downline modal. */
export const DOWNLINE_PAGE_SIZE = 10;
/** Members of each level the network modal shows with the counts. */
export const TREE_MEMBERS_PER_LEVEL = 20;
/** Results of the header search. */
export const SEARCH_LIMIT = 8;
/** Shorter terms are not sent: below three characters the name index can't help on a million members. */
export const SEARCH_MIN_LENGTH = 3;

/**
 * Every network query is keyed under ['network'] (networkApi's group): a change to a member
 * (added, edited, deleted) refreshes the downline, the tree, the upline and the genealogy at once.
 */
export const refreshNetwork = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: [networkApi.tree.group] });

/** One member's profile (a users call: users mutations refresh it with the list). */
export const memberQuery = (userId: number) => {
  const input = { params: { id: userId } };
  return queryOptions({
    queryKey: users.get.key(input),
    queryFn: async ({ signal }): Promise<User> => (await users.get(input, { signal })).user,
  });
};

/** The referrer chain, nearest first as the server sends it. */
export const uplineQuery = (userId: number) => {
  const input = { params: { id: userId } };
  return queryOptions({
    queryKey: network.upline.key(input),
    queryFn: async ({ signal }): Promise<MemberRef[]> => (await network.upline(input, { signal })).data,
  });
};

/** A member's direct referrals, oldest first (as the network view), a page at a time (the downline modal). */
export const downlineQuery = (userId: number, page: number) => {
  const input = { query: { userId, page, limit: DOWNLINE_PAGE_SIZE } };
  return queryOptions({
    queryKey: network.downline.key(input),
    queryFn: ({ signal }): Promise<DownlineResponse> => network.downline(input, { signal }),
    placeholderData: keepPreviousData,
  });
};

/** The network below a member, 10 levels deep: each level's count and its first `perLevel` members. */
export const downlineTreeQuery = (userId: number, perLevel = TREE_MEMBERS_PER_LEVEL) => {
  const input = { query: { userId, depth: MAX_TREE_DEPTH, limit: perLevel } };
  return queryOptions({
    queryKey: network.tree.key(input),
    queryFn: ({ signal }): Promise<DownlineTree> => network.tree(input, { signal }),
  });
};

/** How many members sit on each level below the member (counts only: one member per level comes along). */
export const levelCountsQuery = (userId: number) => downlineTreeQuery(userId, 1);

/** One node's direct referrals, a page per "load more". */
export const childrenQuery = (userId: number) =>
  infiniteQueryOptions({
    queryKey: network.children.key({ query: { userId, limit: CHILDREN_PAGE_SIZE } }),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }): Promise<NetworkChildren> =>
      network.children({ query: { userId, page: pageParam, limit: CHILDREN_PAGE_SIZE } }, { signal }),
    getNextPageParam: (last) => (last.page * last.limit < last.total ? last.page + 1 : undefined),
  });

/** Members by name, email, phone or user id, for the header search. */
export const memberSearchQuery = (term: string) => {
  const input = { query: { search: term, limit: SEARCH_LIMIT } };
  return queryOptions({
    queryKey: users.list.key(input),
    queryFn: async ({ signal }): Promise<User[]> => (await users.list(input, { signal })).users,
    enabled: term.length >= SEARCH_MIN_LENGTH,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
};
