import { Select } from '@mantine/core';
import { INCOME_SORTS, REWARD_TYPES, reportsApi, type RewardType } from '../../../contract/reports';
import { csvFile } from '../../components/list-page';
import { IncomePage, reportDefaults, searchOf } from './income-page';
import { knownSort, reportCsvInput, rewardsQuery, type IncomeSort } from './reports.api';

const URL_FILTERS = reportDefaults({ sort: '-amount', rewardType: 'dailyPayout' });
type Filters = typeof URL_FILTERS;
const read = (f: Filters): Filters => ({
  ...f,
  sort: knownSort<IncomeSort>(f.sort, INCOME_SORTS, '-amount'),
  rewardType: REWARD_TYPES.some((t) => t.value === f.rewardType) ? f.rewardType : 'dailyPayout',
});

export default function RewardIncomePage() {
  return (
    <IncomePage
      title="Reward Income"
      kind="reward"
      totalLabel="Total Rewards"
      amountHeader="Reward Income"
      urlFilters={URL_FILTERS}
      read={read}
      query={(f, page) => rewardsQuery(searchOf(f), f.rewardType as RewardType, page, f.sort as IncomeSort)}
      csv={(f) =>
        csvFile(reportsApi.rewardsCsv, { query: { ...reportCsvInput(searchOf(f)).query, transactionType: f.rewardType as RewardType } }, `rewards-${f.rewardType}.csv`)
      }
      filters={(f, setFilters) => (
        <Select
          label="Reward Type"
          data={REWARD_TYPES.map((t) => ({ value: t.value, label: t.label }))}
          value={f.rewardType}
          onChange={(value) => {
            if (value) setFilters({ rewardType: value });
          }}
          allowDeselect={false}
        />
      )}
    />
  );
}
