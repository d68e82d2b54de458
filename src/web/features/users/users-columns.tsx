import { ActionIcon, Button, Group, Text, Tooltip } from '@mantine/core';
import { IconEdit, IconHierarchy, IconTrash, IconUserCircle } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { User } from '../../../contract/users';
import { memberPath } from '../../lib/paths';
import type { Column } from '../../components/data-table';
import { statusBadge } from './downline-modal';

/** Spec §3 referrer display: a null referrer name means 'Direct'. */
export function referrerLabel(u: User): string {
  if (u.referrerName) return u.referrerName;
  return u.referredBy ? `User #${u.referredBy}` : 'Direct';
}

export interface RowActions {
  /** Sample rows (shown when loading failed) can't be changed. */
  readOnly: boolean;
  onDownline: (u: User) => void;
  onNetwork: (u: User) => void;
  onEdit: (u: User) => void;
  onDelete: (u: User) => void;
}

export function userColumns(offset: number, a: RowActions): Column<User>[] {
  return [
    { header: 'S.No', cell: (_u, i) => offset + i + 1, width: 70 },
    {
      header: 'Name',
      cell: (u) => (
        <Group gap="xs" wrap="nowrap">
          <Text size="sm" fw={500}>
            {u.fullName}
          </Text>
          <Button size="compact-xs" variant="light" onClick={() => a.onDownline(u)} disabled={a.readOnly}>
            Downline
          </Button>
        </Group>
      ),
    },
    { header: 'Email', cell: (u) => u.email },
    { header: 'Phone', cell: (u) => u.phone },
    { header: 'Referred By', cell: referrerLabel },
    { header: 'Status', cell: (u) => statusBadge(u.status) },
    { header: 'Level', cell: (u) => (u.level === null || u.level === undefined ? 'N/A' : u.level) },
    {
      header: 'Actions',
      cell: (u) => (
        <Group gap={4} wrap="nowrap">
          {!a.readOnly && (
            <Tooltip label="Member page and genealogy">
              <ActionIcon variant="subtle" component={Link} to={memberPath(u.userId)} aria-label={`Open ${u.fullName}`}>
                <IconUserCircle size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
          )}
          <Tooltip label="Network">
            <ActionIcon variant="subtle" aria-label={`Network of ${u.fullName}`} onClick={() => a.onNetwork(u)} disabled={a.readOnly}>
              <IconHierarchy size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Edit">
            <ActionIcon variant="subtle" aria-label={`Edit ${u.fullName}`} onClick={() => a.onEdit(u)} disabled={a.readOnly}>
              <IconEdit size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Delete">
            <ActionIcon variant="subtle" color="red" aria-label={`Delete ${u.fullName}`} onClick={() => a.onDelete(u)} disabled={a.readOnly}>
              <IconTrash size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
        </Group>
      ),
    },
  ];
}
