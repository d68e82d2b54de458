import { useState, type ReactNode } from 'react';
import { TextInput } from '@mantine/core';
import { DateRangeFilter } from '../../components/date-range-filter';
import type { ReportSearch } from './reports.api';

interface ReportFiltersProps {
  initial: ReportSearch;
  onSearch: (search: ReportSearch) => void;
  /** Extra controls before the Search button (the Reward Type select). */
  children?: ReactNode;
}

/** From/To dates (both required, spec §5), a user-name search and the Search button. */
export function ReportFilters({ initial, onSearch, children }: ReportFiltersProps) {
  const [userName, setUserName] = useState(initial.userName);
  return (
    <DateRangeFilter label="Search" require="both" initial={initial} onSearch={(range) => onSearch({ ...range, userName })}>
      <TextInput label="User Name" placeholder="Search by user name" value={userName} onChange={(e) => setUserName(e.currentTarget.value)} />
      {children}
    </DateRangeFilter>
  );
}
