import { infiniteQueryOptions, keepPreviousData, queryOptions } from '@tanstack/react-query';
import { networkChildrenResponse, type NetworkChildren } from '../../../contract/network';
import { downlineTreeResponse, uplineResponse, userResponse, usersPage, type DownlineTree, type User } from '../../../contract/users';
import { apiRequest } from '../../lib/api-client';

/** Children fetched per "load more" of one tree node: never the whole network. */
export const CHILDREN_PAGE_SIZE = 20;
/** Results of the header search. */
export const SEARCH_LIMIT = 8;
/** Shorter terms are not sent: below three characters the name index can't help on a million members. */
export const SEARCH_MIN_LENGTH = 3;

const invalid = () => new Error('Invalid data format from API');

export const networkKeys = {
  member: (userId: number) => ['network', 'member', userId] as const,
  upline: (userId: number) => ['network', 'upline', userId] as const,
  levels: (userId: number) => ['network', 'levels', userId] as const,
  children: (userId: number) => ['network', 'children', userId] as const,
  search: (term: string) => ['network', 'search', term] as const,
};

export const memberQuery = (userId: number) =>
  queryOptions({
    queryKey: networkKeys.member(userId),
    queryFn: async ({ signal }): Promise<User> => {
      const parsed = userResponse.safeParse(await apiRequest<unknown>(`/users/updateByUserId/${userId}`, { signal }));
      if (!parsed.success) throw invalid();
      return parsed.data.user;
    },
  });

/** The referrer chain, nearest first as the server sends it. */
export const uplineQuery = (userId: number) =>
  queryOptions({
    queryKey: networkKeys.upline(userId),
    queryFn: async ({ signal }) => {
      const parsed = uplineResponse.safeParse(await apiRequest<unknown>(`/users/getUserUpline/${userId}`, { signal }));
      if (!parsed.success) throw invalid();
      return parsed.data.data;
    },
  });

/** How many members sit on each level below the member (counts only: one member per level comes along). */
export const levelCountsQuery = (userId: number) =>
  queryOptions({
    queryKey: networkKeys.levels(userId),
    queryFn: async ({ signal }): Promise<DownlineTree> => {
      const body = await apiRequest<unknown>(`/users/downline-tree?userId=${userId}&depth=10&limit=1`, { signal });
      const parsed = downlineTreeResponse.safeParse(body);
      if (!parsed.success) throw invalid();
      return parsed.data;
    },
  });

/** One node's direct referrals, a page per "load more". */
export const childrenQuery = (userId: number) =>
  infiniteQueryOptions({
    queryKey: networkKeys.children(userId),
    initialPageParam: 1,
    queryFn: async ({ pageParam, signal }): Promise<NetworkChildren> => {
      const body = await apiRequest<unknown>(
        `/network/children?userId=${userId}&page=${pageParam}&limit=${CHILDREN_PAGE_SIZE}`,
        { signal },
      );
      const parsed = networkChildrenResponse.safeParse(body);
      if (!parsed.success) throw invalid();
      return parsed.data;
    },
    getNextPageParam: (last) => (last.page * last.limit < last.total ? last.page + 1 : undefined),
  });

/** Members by name, email, phone or user id, for the header search. */
export const memberSearchQuery = (term: string) =>
  queryOptions({
    queryKey: networkKeys.search(term),
    queryFn: async ({ signal }): Promise<User[]> => {
      const q = new URLSearchParams({ search: term, limit: String(SEARCH_LIMIT) });
      const parsed = usersPage.safeParse(await apiRequest<unknown>(`/users/getAllusers?${q}`, { signal }));
      if (!parsed.success) throw invalid();
      return parsed.data.users;
    },
    enabled: term.length >= SEARCH_MIN_LENGTH,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
