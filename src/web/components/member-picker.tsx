import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Loader, Select, type SelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, queryOptions, useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { usersApi } from '../../contract/users';
import { client } from '../lib/api-client';

const users = client(usersApi);
const SEARCH_LIMIT = 20;
const DEBOUNCE_MS = 250;

export interface PickableMember {
  userId: number;
  fullName: string;
}

/** The first members whose name, email, phone or user id matches what was typed (server-side search). */
export const memberSearchQuery = (term: string) => {
  const input = { query: { search: term, limit: SEARCH_LIMIT } };
  return queryOptions({
    queryKey: users.list.key(input),
    queryFn: async ({ signal }) => (await users.list(input, { signal })).users as PickableMember[],
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
};

interface Option {
  value: string;
  label: string;
}

interface MemberPickerProps<M extends PickableMember> extends Omit<SelectProps, 'data' | 'value' | 'onChange' | 'searchValue' | 'onSearchChange' | 'filter'> {
  /** The picked member's user id, or null. */
  value: string | null;
  onChange: (userId: string | null) => void;
  /** An option meaning "no member", e.g. 'All Users' in a filter. */
  allLabel?: string;
  /** Where members come from; by default the users list's search. */
  search?: (term: string) => UseQueryOptions<M[], Error, M[], QueryKey>;
  optionLabel?: (member: M) => string;
}

const ALL = 'all';

/**
 * THE member picker: a searchable select fed by the server as the operator types (names are
 * fetched only once it is opened). Typing replaces the shown choice instead of adding to it, and
 * a spinner says the list is still the previous answer's until the new one arrives.
 */
export function MemberPicker<M extends PickableMember = PickableMember>(props: MemberPickerProps<M>) {
  const { value, onChange, allLabel, search: searchQuery, optionLabel = defaultLabel, ...selectProps } = props;
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<Option | null>(null);
  const [wanted, setWanted] = useState(false);
  const [opened, setOpened] = useState(false);
  /** Enter was pressed on typed text before its matches arrived: the first match is picked when they do. */
  const [enterOn, setEnterOn] = useState<string | null>(null);
  /** During that Enter's own event Mantine submits whichever option it had selected ('All Users'): ignored. */
  const enterPressed = useRef(false);
  const [debounced] = useDebouncedValue(search, DEBOUNCE_MS);
  // The box shows the chosen option's label after a pick: that is not a search.
  const term = debounced === (picked?.label ?? allLabel ?? '') ? '' : debounced.trim();
  const query = searchQuery ? searchQuery(term) : (memberSearchQuery(term) as unknown as UseQueryOptions<M[], Error, M[], QueryKey>);
  const names = useQuery({ ...query, enabled: wanted });
  const searching = wanted && (names.isFetching || search !== debounced);

  const options: Option[] = allLabel ? [{ value: ALL, label: allLabel }] : [];
  // A member picked before (or named by the address after a reload) stays choosable.
  const current = picked?.value === value ? picked : value ? { value, label: `ID: ${value}` } : null;
  if (current) options.push(current);
  for (const m of names.data ?? []) {
    if (String(m.userId) !== current?.value) options.push({ value: String(m.userId), label: optionLabel(m) });
  }

  const choose = (option: Option | null) => {
    setPicked(option);
    setOpened(false);
    setSearch(option ? option.label : (allLabel ?? ''));
    onChange(option ? option.value : null);
  };
  const answered = names.data !== undefined && !names.isPlaceholderData && !searching;
  const first = term && answered ? names.data?.[0] : undefined;
  const firstMatch = first ? { value: String(first.userId), label: optionLabel(first) } : undefined;
  useEffect(() => {
    if (enterOn === null || enterOn !== term || !answered) return;
    setEnterOn(null);
    // No match: the typed text and the list of none stay, nothing is reset.
    if (firstMatch) choose(firstMatch);
  });

  /**
   * Enter on typed text picks the first match (issue 15 item 14: it used to fall back to 'All
   * Users'); an option reached with the arrow keys is Mantine's own to pick.
   */
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter' || event.currentTarget.getAttribute('aria-activedescendant')) return;
    const typed = search.trim();
    if (!typed || typed === (picked?.label ?? allLabel ?? '')) return;
    event.preventDefault();
    enterPressed.current = true;
    setTimeout(() => {
      enterPressed.current = false;
    }, 0);
    if (firstMatch && typed === term) choose(firstMatch);
    else setEnterOn(typed);
  };

  return (
    <Select
      searchable
      {...selectProps}
      data={options}
      value={value ?? (allLabel ? ALL : null)}
      searchValue={search}
      onSearchChange={(next) => {
        if (!enterPressed.current) setSearch(next);
      }}
      dropdownOpened={opened}
      onDropdownOpen={() => {
        setWanted(true);
        setOpened(true);
      }}
      onDropdownClose={() => {
        if (!enterPressed.current) setOpened(false);
      }}
      onKeyDown={onKeyDown}
      onFocus={(event) => event.currentTarget.select()}
      filter={({ options: all }) => all}
      nothingFoundMessage={searching ? 'Searching…' : 'No users found'}
      rightSection={searching ? <Loader size={14} role="status" aria-label="Searching members" /> : undefined}
      onChange={(next, option) => {
        if (enterPressed.current) return;
        const chosen = next === null || next === ALL ? null : next;
        setEnterOn(null);
        choose(chosen && option ? { value: option.value, label: option.label } : null);
      }}
    />
  );
}

const defaultLabel = (m: PickableMember) => `${m.fullName} (ID: ${m.userId})`;
