import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { rankChangedResponse, ranksResponse, type Rank, type RankBody } from '../../../contract/ranks';
import { apiRequest } from '../../lib/api-client';

const RANKS_KEY = ['ranks', 'all'] as const;

export const ranksQuery = () =>
  queryOptions({
    queryKey: RANKS_KEY,
    queryFn: async ({ signal }): Promise<Rank[]> => {
      const parsed = ranksResponse.safeParse(await apiRequest<unknown>('/ranks/getAllRank', { signal }));
      if (!parsed.success) throw new Error('Invalid data format from API');
      return parsed.data.data;
    },
  });

/** Spec §3: sample ranks shown (badged, read-only) only when loading fails. */
export const SAMPLE_RANKS: Rank[] = [
  { name: 'Bronze', status: true },
  { name: 'Silver', status: true },
  { name: 'Gold', status: true },
  { name: 'Platinum', status: true },
  { name: 'Diamond', status: false },
].map((r, i) => ({ ...r, rankId: 100001 + i, _id: `sample-${100001 + i}`, createdAt: '' }));

export function useSaveRank() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ rankId, body }: { rankId: number | null; body: RankBody }) => {
      const response = await apiRequest<unknown>(rankId ? `/ranks/updateRank/${rankId}` : '/ranks/createRank', {
        method: rankId ? 'PUT' : 'POST',
        body,
      });
      const parsed = rankChangedResponse.safeParse(response);
      if (!parsed.success) throw new Error('Invalid response format');
      return parsed.data;
    },
    // Ranks also feed the users screen's rank filter.
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: ['ranks'] }), client.invalidateQueries({ queryKey: ['users'] })]),
  });
}

export function useDeleteRank() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (rankId: number) => apiRequest<{ message: string }>(`/ranks/deleteRank/${rankId}`, { method: 'DELETE' }),
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: ['ranks'] }), client.invalidateQueries({ queryKey: ['users'] })]),
  });
}
