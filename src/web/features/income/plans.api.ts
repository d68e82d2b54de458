import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { plansApi, type Plan, type PlanBody, type PlanVersion } from '../../../contract/income';
import { client } from '../../lib/api-client';

const plans = client(plansApi);

export type { Plan, PlanVersion };

/** Every plan with the version in force today and the next one scheduled. */
export const plansQuery = () =>
  queryOptions({
    queryKey: plans.list.key(),
    queryFn: async ({ signal }): Promise<Plan[]> => (await plans.list(undefined, { signal })).data,
  });

/** A plan's versions, newest first. */
export function usePlanVersions(planId: number) {
  return useQuery({
    queryKey: plans.versions.key({ params: { id: planId } }),
    queryFn: async ({ signal }): Promise<PlanVersion[]> => (await plans.versions({ params: { id: planId } }, { signal })).data,
  });
}

/** Creates a plan (planId null) or saves a change as a new version. */
export function useSavePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ planId, body, idempotencyKey }: { planId: number | null; body: PlanBody; idempotencyKey: string }) =>
      planId ? plans.change({ params: { id: planId }, body }, { idempotencyKey }) : plans.create({ body }, { idempotencyKey }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [plansApi.list.group] }),
  });
}

/** Today in Asia/Kolkata (the engine's business day) plus `offset` days, yyyy-mm-dd (a date input's value). */
export function istDay(offset = 0, now = new Date()): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
}
