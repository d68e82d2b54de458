import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { activationApi, plansApi, type ActivationBody, type MembershipDetail, type Plan } from '../../../contract/income';
import { membershipApi } from '../../../contract/membership';
import { walletApi } from '../../../contract/wallet';
import { client } from '../../lib/api-client';

const activation = client(activationApi);
const plans = client(plansApi);

export type { MembershipDetail, Plan };

/** A member's membership as the engine keeps it; null when they have none. */
export const membershipDetailQuery = (userId: number) =>
  queryOptions({
    queryKey: activation.get.key({ params: { userId } }),
    queryFn: async ({ signal }): Promise<MembershipDetail | null> => (await activation.get({ params: { userId } }, { signal })).data,
  });

/** The plans on sale today: those whose version in force is active (keyed as the plans screen's list). */
export const activePlansQuery = () =>
  queryOptions({
    queryKey: plans.list.key(),
    queryFn: async ({ signal }): Promise<Plan[]> => (await plans.list(undefined, { signal })).data,
    select: (all: Plan[]) => all.filter((p) => p.current?.active),
  });

/**
 * Activates a plan for a member (a money movement: one Idempotency-Key per distinct request).
 * Done or filed for approval, the member's membership, the membership lists and the wallets refresh.
 */
export function useActivateMembership() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ idempotencyKey, body }: { idempotencyKey: string; body: ActivationBody }) =>
      activation.activate({ body }, { idempotencyKey }),
    onSuccess: () =>
      Promise.all(
        [activationApi.get.group, membershipApi.list.group, walletApi.history.group].map((group) =>
          queryClient.invalidateQueries({ queryKey: [group] })),
      ),
  });
}
