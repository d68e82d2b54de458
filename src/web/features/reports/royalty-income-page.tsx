import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { currentMonthRange } from '../../lib/format';
import { IncomePage } from './income-page';
import { reportParams, royaltyQuery, type ReportSearch } from './reports.api';

export default function RoyaltyIncomePage() {
  const [search, setSearch] = useState<ReportSearch>(() => ({ ...currentMonthRange(), userName: '' }));
  const [page, setPage] = useState(1);
  const result = useQuery(royaltyQuery(search, page));
  return (
    <IncomePage
      title="Royalty Income"
      kind="royalty"
      totalLabel="Total Royalty"
      amountHeader="Royalty Income"
      search={search}
      onSearch={(next) => {
        setSearch(next);
        setPage(1);
      }}
      page={page}
      onPage={setPage}
      result={result}
      csv={{ path: `/royalties/royaltyStats.csv?${reportParams(search)}`, filename: 'royalty-income.csv' }}
    />
  );
}
