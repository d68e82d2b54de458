import { useState } from 'react';
import { Group, Loader, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { LEVELS } from '../../../contract/users';
import { rankOptionsQuery, userNamesQuery, type UserFilters } from './users.api';

const ALL = 'all';
const LEVEL_OPTIONS = [{ value: ALL, label: 'All Levels' }, ...LEVELS.map((l) => ({ value: String(l), label: `Level ${l}` }))];

interface Option {
  value: string;
  label: string;
}

/**
 * The three filters of spec §2. The name filter is a searchable select fed by the server
 * (decisions.md): typing searches names, emails, phones and user ids.
 */
export function UserFiltersBar({ filters, onChange }: { filters: UserFilters; onChange: (f: UserFilters) => void }) {
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<Option | null>(null);
  // Names are fetched only once the operator opens or types in the name filter.
  const [wanted, setWanted] = useState(false);
  const [debounced] = useDebouncedValue(search, 250);
  // The box shows the chosen option's label after a pick: that is not a search.
  const term = debounced === (picked?.label ?? 'All Users') ? '' : debounced.trim();
  const names = useQuery({ ...userNamesQuery(term), enabled: wanted });
  // Until the answer for what was typed arrives, the list still shows the last one's names.
  const searching = wanted && (names.isFetching || search !== debounced);
  const ranks = useQuery(rankOptionsQuery());

  const nameOptions: Option[] = [{ value: ALL, label: 'All Users' }];
  if (picked) nameOptions.push(picked);
  for (const u of names.data ?? []) {
    const value = String(u.userId);
    if (value !== picked?.value) nameOptions.push({ value, label: `${u.fullName} (ID: ${u.userId})` });
  }
  const rankOptions = [{ value: ALL, label: 'All Ranks' }, ...(ranks.data ?? []).map((r) => ({ value: String(r.rankId), label: r.name }))];
  const pick = (value: string | null) => (value === null || value === ALL ? null : value);

  return (
    <Group gap="sm" wrap="wrap">
      <Select
        aria-label="Filter by user name"
        placeholder="All Users"
        searchable
        data={nameOptions}
        value={filters.userId ?? ALL}
        searchValue={search}
        onSearchChange={setSearch}
        onDropdownOpen={() => setWanted(true)}
        // Typing replaces the shown choice ("All Users", or the picked member) instead of adding to it.
        onFocus={(event) => event.currentTarget.select()}
        filter={({ options }) => options}
        nothingFoundMessage={searching ? 'Searching…' : 'No users found'}
        rightSection={searching ? <Loader size={14} role="status" aria-label="Searching members" /> : undefined}
        onChange={(value, option) => {
          const chosen = pick(value);
          setPicked(chosen && option ? { value: option.value, label: option.label } : null);
          onChange({ ...filters, userId: chosen });
        }}
        w={280}
      />
      <Select
        aria-label="Filter by level"
        data={LEVEL_OPTIONS}
        value={filters.level ?? ALL}
        onChange={(value) => onChange({ ...filters, level: pick(value) })}
        allowDeselect={false}
        w={160}
      />
      <Select
        aria-label="Filter by rank"
        data={rankOptions}
        value={filters.rankId ?? ALL}
        onChange={(value) => onChange({ ...filters, rankId: pick(value) })}
        allowDeselect={false}
        w={180}
      />
    </Group>
  );
}
