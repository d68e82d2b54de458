import { INCOME_SORTS, reportsApi } from '../../../contract/reports';
import { csvFile } from '../../components/list-page';
import { IncomePage, reportDefaults, searchOf } from './income-page';
import { knownSort, reportCsvInput, royaltyQuery, type IncomeSort } from './reports.api';

const URL_FILTERS = reportDefaults({ sort: '-amount' });
type Filters = typeof URL_FILTERS;
const read = (f: Filters): Filters => ({ ...f, sort: knownSort<IncomeSort>(f.sort, INCOME_SORTS, '-amount') });

export default function RoyaltyIncomePage() {
  return (
    <IncomePage
      title="Royalty Income"
      kind="royalty"
      totalLabel="Total Royalty"
      amountHeader="Royalty Income"
      urlFilters={URL_FILTERS}
      read={read}
      query={(f, page) => royaltyQuery(searchOf(f), page, f.sort as IncomeSort)}
      csv={(f) => csvFile(reportsApi.royaltyCsv, reportCsvInput(searchOf(f)), 'royalty-income.csv')}
    />
  );
}
