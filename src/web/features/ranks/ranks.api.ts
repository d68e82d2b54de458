import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { ranksApi, type Rank, type RankBody } from '../../../contract/ranks';
import { client } from '../../lib/api-client';

const ranks = client(ranksApi);

export const ranksQuery = () =>
  queryOptions({
    queryKey: ranks.list.key(),
    queryFn: async ({ signal }): Promise<Rank[]> => (await ranks.list(undefined, { signal })).data,
  });

/** Spec §3: sample ranks shown (badged, read-only) only when loading fails. */
export const SAMPLE_RANKS: Rank[] = [
  { name: 'Bronze', status: true },
  { name: 'Silver', status: true },
  { name: 'Gold', status: true },
  { name: 'Platinum', status: true },
  { name: 'Diamond', status: false },
].map((r, i) => ({ ...r, rankId: 100001 + i, _id: `sample-${100001 + i}`, createdAt: '' }));

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
