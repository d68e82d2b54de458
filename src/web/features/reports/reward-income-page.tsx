import { useState } from 'react';
import { Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { REWARD_TYPES, reportsApi, type RewardType } from '../../../contract/reports';
import { IncomePage, useReportSearch } from './income-page';
import { reportCsvInput, rewardsQuery } from './reports.api';

export default function RewardIncomePage() {
  const state = useReportSearch();
  const [rewardType, setRewardType] = useState<RewardType>('dailyPayout');
  const result = useQuery(rewardsQuery(state.search, rewardType, state.page));
  const range = reportCsvInput(state.search);
  return (
    <IncomePage
      title="Reward Income"
      kind="reward"
      totalLabel="Total Rewards"
      amountHeader="Reward Income"
      state={state}
      result={result}
      csv={{
        endpoint: reportsApi.rewardsCsv,
        input: { query: { ...range.query, transactionType: rewardType } },
        filename: `rewards-${rewardType}.csv`,
      }}
      filters={
        <Select
          label="Reward Type"
          data={REWARD_TYPES.map((t) => ({ value: t.value, label: t.label }))}
          value={rewardType}
          onChange={(value) => {
            if (!value) return;
            setRewardType(value as RewardType);
            state.setPage(1);
          }}
          allowDeselect={false}
        />
      }
    />
  );
}
