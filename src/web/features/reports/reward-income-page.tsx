import { useState } from 'react';
import { Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { REWARD_TYPES, type RewardType } from '../../../contract/reports';
import { currentMonthRange } from '../../lib/format';
import { IncomePage } from './income-page';
import { reportParams, rewardsQuery, type ReportSearch } from './reports.api';

export default function RewardIncomePage() {
  const [search, setSearch] = useState<ReportSearch>(() => ({ ...currentMonthRange(), userName: '' }));
  const [rewardType, setRewardType] = useState<RewardType>('dailyPayout');
  const [page, setPage] = useState(1);
  const result = useQuery(rewardsQuery(search, rewardType, page));
  return (
    <IncomePage
      title="Reward Income"
      kind="reward"
      totalLabel="Total Rewards"
      amountHeader="Reward Income"
      search={search}
      onSearch={(next) => {
        setSearch(next);
        setPage(1);
      }}
      page={page}
      onPage={setPage}
      result={result}
      csv={{
        path: `/rewards/rewardsDaily.csv?${reportParams(search, { transactionType: rewardType })}`,
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
            setPage(1);
          }}
          allowDeselect={false}
        />
      }
    />
  );
}
