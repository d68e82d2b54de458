import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { rank, rankChangedResponse, ranksApi, type RankBody } from '../../../contract/ranks';
import { client } from '../../lib/api-client';

/** A rank as the screen shows it; `rankId` is null when the server sent none (it can't be edited or deleted). */
export interface RankRow {
  rankId: number | null;
  /** The row's key: the server's _id, else its id, else its name. */
  key: string;
  name: string;
  status: boolean;
  /** The income engine's ladder and criteria (issue 16); 0 when the server sent none. */
  position: number;
  royaltyWeight: number;
  minDirect: number;
  minTeam: number;
  /** Rupees. */
  minBusiness: number;
  monthlyReward: number;
}

/**
 * Answers are parsed with the contract's schemas, as tolerantly as spec §7 says the client is:
 * the list bare or under `data`; a rank's id as `rankId` or `id` (spec §3), `_id` and createdAt
 * optional; the answer to a change is read only for its message.
 */
const rankList = z.preprocess(
  (body) => (Array.isArray(body) ? { data: body } : body),
  z.object({ data: z.array(rank.partial({ rankId: true, _id: true, createdAt: true }).extend({ id: z.number().optional() })) }),
);
const changed = rankChangedResponse.pick({ success: true, message: true });

const ranks = client({
  ...ranksApi,
  list: { ...ranksApi.list, responses: { 200: rankList } },
  create: { ...ranksApi.create, responses: { 201: changed } },
  update: { ...ranksApi.update, responses: { 200: changed } },
});

const toRankRow = (item: z.output<typeof rankList>['data'][number]): RankRow => {
  const id = item.rankId ?? item.id;
  const rankId = id !== undefined && Number.isInteger(id) && id > 0 ? id : null;
  return {
    rankId,
    key: item._id ?? (rankId === null ? `name-${item.name}` : String(rankId)),
    name: item.name,
    status: item.status,
    position: item.position,
    royaltyWeight: item.royaltyWeight,
    minDirect: item.minDirect,
    minTeam: item.minTeam,
    minBusiness: item.minBusiness,
    monthlyReward: item.monthlyReward,
  };
};

export const ranksQuery = () =>
  queryOptions({
    queryKey: ranks.list.key(),
    queryFn: async ({ signal }): Promise<RankRow[]> => (await ranks.list(undefined, { signal })).data.map(toRankRow),
  });

/** Spec §3: sample ranks shown (badged, read-only) only when loading fails. */
export const SAMPLE_RANKS: RankRow[] = [
  { name: 'Bronze', status: true },
  { name: 'Silver', status: true },
  { name: 'Gold', status: true },
  { name: 'Platinum', status: true },
  { name: 'Diamond', status: false },
].map((r, i) => ({
  ...r, rankId: 100001 + i, key: `sample-${100001 + i}`,
  position: i + 1, royaltyWeight: 0, minDirect: 0, minTeam: 0, minBusiness: 0, monthlyReward: 0,
}));

// Ranks also feed the users screen's rank filter.
const refreshRanks = (queryClient: ReturnType<typeof useQueryClient>) =>
  Promise.all([queryClient.invalidateQueries({ queryKey: [ranksApi.list.group] }), queryClient.invalidateQueries({ queryKey: ['users'] })]);

export function useSaveRank() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ rankId, body }: { rankId: number | null; body: RankBody }) =>
      rankId ? ranks.update({ params: { id: rankId }, body }) : ranks.create({ body }),
    onSuccess: () => refreshRanks(queryClient),
  });
}

export function useDeleteRank() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rankId: number) => ranks.remove({ params: { id: rankId } }),
    onSuccess: () => refreshRanks(queryClient),
  });
}
