import { Alert, List, Text } from '@mantine/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { runsApi } from '../../../contract/income-runs';
import { client } from '../../lib/api-client';
import { formatINR } from '../../lib/format';
import { kindLabel } from './run-format';

const runs = client(runsApi);

/** What a member owes from reversed runs (issue 22): the member page's recovery notice. */
export const memberRecoveryQuery = (userId: number) =>
  queryOptions({
    queryKey: runs.recovery.key({ params: { userId } }),
    queryFn: async ({ signal }) => (await runs.recovery({ params: { userId } }, { signal })).data,
  });

/**
 * "Recovery owed ₹X" on the member page (issue 22): what reversals of runs could not take back from
 * the member, still to be settled from their next credits, and the runs it comes from. Nothing is
 * shown when they owe nothing, or to an operator who may not see runs.
 */
export function RecoveryOwed({ userId }: { userId: number }) {
  const query = useQuery(memberRecoveryQuery(userId));
  if (!query.data || query.data.owed <= 0) return null;
  const { owed, shortfalls } = query.data;
  return (
    <Alert color="orange" variant="light" title={`Recovery owed ${formatINR(owed)}`} aria-label="Recovery owed">
      <Text size="sm">
        Reversed runs could not take this back from the member&apos;s wallet: their next credits (payouts, level income,
        rewards, recharges) settle it first, oldest first.
      </Text>
      <List size="sm" mt="xs">
        {shortfalls.map((s) => (
          <List.Item key={s.runId}>
            {`Run ${s.runId} (${kindLabel(s.kind)}, ${s.periodStart}): shortfall ${formatINR(s.amount)}, recovered ${formatINR(s.recovered)}`}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
