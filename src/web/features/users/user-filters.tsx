import { Group, Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { LEVELS } from '../../../contract/users';
import { MemberPicker } from '../../components/member-picker';
import { levelOptionsQuery, rankOptionsQuery, type UserFilters } from './users.api';

const ALL = 'all';
const levelOptions = (levels: readonly number[]) => [
  { value: ALL, label: 'All Levels' },
  ...levels.map((l) => ({ value: String(l), label: `Level ${l}` })),
];
const pick = (value: string | null) => (value === null || value === ALL ? null : value);

/**
 * The three filters of spec §2. The name filter is the member picker (decisions.md): typing
 * searches names, emails, phones and user ids on the server.
 */
export function UserFiltersBar({ filters, onChange }: { filters: UserFilters; onChange: (change: Partial<UserFilters>) => void }) {
  const ranks = useQuery(rankOptionsQuery());
  // Level 1 to 10 (spec §9), and the deeper levels members hold (issue 15 item 6).
  const levels = useQuery(levelOptionsQuery());
  const held: readonly number[] = levels.data ?? LEVELS;
  // A level named by the address stays choosable before (or without) the server's list.
  const named = /^\d+$/.test(filters.level ?? '') ? Number(filters.level) : null;
  const shownLevels = named !== null && !held.includes(named) ? [...held, named] : held;
  const rankOptions = [{ value: ALL, label: 'All Ranks' }, ...(ranks.data ?? []).map((r) => ({ value: String(r.rankId), label: r.name }))];

  return (
    <Group gap="sm" wrap="wrap">
      <MemberPicker
        aria-label="Filter by user name"
        placeholder="All Users"
        allLabel="All Users"
        value={filters.userId}
        onChange={(userId) => onChange({ userId })}
        w={280}
      />
      <Select
        aria-label="Filter by level"
        data={levelOptions(shownLevels)}
        value={filters.level ?? ALL}
        onChange={(value) => onChange({ level: pick(value) })}
        allowDeselect={false}
        w={160}
      />
      <Select
        aria-label="Filter by rank"
        data={rankOptions}
        value={filters.rankId ?? ALL}
        onChange={(value) => onChange({ rankId: pick(value) })}
        allowDeselect={false}
        w={180}
      />
    </Group>
  );
}
