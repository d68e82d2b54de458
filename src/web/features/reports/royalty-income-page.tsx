import { useQuery } from '@tanstack/react-query';
import { reportsApi } from '../../../contract/reports';
import { IncomePage, useReportSearch } from './income-page';
import { reportCsvInput, royaltyQuery } from './reports.api';

export default function RoyaltyIncomePage() {
  const state = useReportSearch();
  const result = useQuery(royaltyQuery(state.search, state.page));
  return (
    <IncomePage
      title="Royalty Income"
      kind="royalty"
      totalLabel="Total Royalty"
      amountHeader="Royalty Income"
      state={state}
      result={result}
      csv={{ endpoint: reportsApi.royaltyCsv, input: reportCsvInput(state.search), filename: 'royalty-income.csv' }}
    />
  );
}
