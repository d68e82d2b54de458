import { Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { INCOME_SORTS, REWARD_TYPES, reportsApi, type RewardType } from '../../../contract/reports';
import { IncomePage, reportDefaults, useReportSearch } from './income-page';
import { knownSort, reportCsvInput, rewardsQuery, type IncomeSort } from './reports.api';

const URL_FILTERS = reportDefaults({ sort: '-amount', rewardType: 'dailyPayout' });

export default function RewardIncomePage() {
  const { filters, setFilters, ...state } = useReportSearch(URL_FILTERS);
  const sort = knownSort<IncomeSort>(filters.sort, INCOME_SORTS, '-amount');
  const rewardType = (REWARD_TYPES.some((t) => t.value === filters.rewardType) ? filters.rewardType : 'dailyPayout') as RewardType;
  const result = useQuery(rewardsQuery(state.search, rewardType, state.page, sort));
  const range = reportCsvInput(state.search);
  return (
    <IncomePage
      title="Reward Income"
      kind="reward"
      totalLabel="Total Rewards"
      amountHeader="Reward Income"
      state={{ ...state, sort: { value: sort, onChange: (value) => setFilters({ sort: value }) } }}
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
            if (value) setFilters({ rewardType: value });
          }}
          allowDeselect={false}
        />
      }
    />
  );
}
