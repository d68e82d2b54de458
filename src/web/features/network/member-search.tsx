import { useEffect, useState } from 'react';
import { Combobox, Group, Loader, Text, TextInput, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { memberPath } from '../../lib/paths';
import { errorMessage } from '../../lib/api-client';
import classes from './member-search.module.css';
import { memberSearchQuery, SEARCH_MIN_LENGTH } from './network.api';

const DEBOUNCE_MS = 250;

/**
 * The header search: members by name, email, phone or user id, searched on the server as the
 * operator types. A combobox (arrow keys move, Enter opens the member, Escape closes); Enter with
 * nothing highlighted opens the first result of what is typed: pressed while the answer is still on
 * its way (the list meanwhile shows the previous term's members), it waits for that answer.
 */
export function MemberSearch() {
  const navigate = useNavigate();
  const [value, setValue] = useState('');
  const [term] = useDebouncedValue(value.trim(), DEBOUNCE_MS);
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const search = useQuery(memberSearchQuery(term));
  const active = term.length >= SEARCH_MIN_LENGTH && value.trim().length >= SEARCH_MIN_LENGTH;
  const results = active ? (search.data ?? []) : [];
  /** The results are the answer to exactly what is in the field (not the previous term's, kept while it loads). */
  const fresh = active && term === value.trim() && search.isSuccess && !search.isPlaceholderData;
  const [enterPending, setEnterPending] = useState(false);
  const status = !active || (search.isPending && search.isFetching)
    ? 'Searching...'
    : search.isError
      ? errorMessage(search.error, 'Search failed. Please try again.')
      : results.length === 0
        ? 'No members found'
        : null;

  const open = (userId: string) => {
    setValue('');
    combobox.closeDropdown();
    navigate(memberPath(Number(userId)));
  };

  useEffect(() => {
    if (!enterPending || !(fresh || search.isError)) return;
    setEnterPending(false);
    if (fresh && results.length > 0) open(String(results[0].userId));
  });

  return (
    <Combobox store={combobox} onOptionSubmit={open} withinPortal>
      <Combobox.Target withExpandedAttribute>
        <TextInput
          aria-label="Search members"
          placeholder="Search members..."
          leftSection={<IconSearch size={16} aria-hidden />}
          rightSection={active && search.isFetching ? <Loader size={14} aria-hidden /> : null}
          radius="xl"
          w={{ base: 160, sm: 260, lg: 340 }}
          visibleFrom="xs"
          value={value}
          onChange={(event) => {
            setValue(event.currentTarget.value);
            setEnterPending(false);
            combobox.openDropdown();
          }}
          onFocus={() => combobox.openDropdown()}
          onBlur={() => combobox.closeDropdown()}
          onKeyDown={(event) => {
            if (event.key !== 'Enter' || combobox.getSelectedOptionIndex() !== -1 || value.trim().length < SEARCH_MIN_LENGTH) return;
            event.preventDefault();
            if (!fresh) setEnterPending(true);
            else if (results.length > 0) open(String(results[0].userId));
          }}
        />
      </Combobox.Target>

      <Combobox.Dropdown hidden={value.trim().length < SEARCH_MIN_LENGTH} miw={340}>
        <Combobox.Options aria-label="Members found">
          {results.map((u) => (
            <Combobox.Option key={u.userId} value={String(u.userId)} className={classes.option}>
              <Group justify="space-between" gap="sm" wrap="nowrap">
                <Text size="sm" fw={500} truncate>
                  {u.fullName}
                </Text>
                <Text size="xs" c="dimmed" className={classes.meta}>{`ID ${u.userId}`}</Text>
              </Group>
              <Text size="xs" c="dimmed" truncate className={classes.meta}>{`${u.email} · ${u.phone}`}</Text>
            </Combobox.Option>
          ))}
        </Combobox.Options>
        {status && (
          <Text size="sm" c="dimmed" ta="center" py="xs" role="status">
            {status}
          </Text>
        )}
      </Combobox.Dropdown>
    </Combobox>
  );
}
