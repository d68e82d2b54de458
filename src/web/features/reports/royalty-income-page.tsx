import { useQuery } from '@tanstack/react-query';
import { INCOME_SORTS, reportsApi } from '../../../contract/reports';
import { IncomePage, reportDefaults, useReportSearch } from './income-page';
import { knownSort, reportCsvInput, royaltyQuery, type IncomeSort } from './reports.api';

const URL_FILTERS = reportDefaults({ sort: '-amount' });

export default function RoyaltyIncomePage() {
  const { filters, setFilters, ...state } = useReportSearch(URL_FILTERS);
  const sort = knownSort<IncomeSort>(filters.sort, INCOME_SORTS, '-amount');
  const result = useQuery(royaltyQuery(state.search, state.page, sort));
  return (
    <IncomePage
      title="Royalty Income"
      kind="royalty"
      totalLabel="Total Royalty"
      amountHeader="Royalty Income"
      state={{ ...state, sort: { value: sort, onChange: (value) => setFilters({ sort: value }) } }}
      result={result}
      csv={{ endpoint: reportsApi.royaltyCsv, input: reportCsvInput(state.search), filename: 'royalty-income.csv' }}
    />
  );
}
