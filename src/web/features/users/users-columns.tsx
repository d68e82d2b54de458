import { ActionIcon, Button } from '@mantine/core';
import { IconEdit, IconHierarchy, IconTrash, IconUserCircle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { memberPath } from '../../lib/paths';
import type { Column } from '../../components/data-table';
import { HoverHint } from '../../components/hover-hint';
import { RowAction, RowActions } from '../../components/row-actions';
import { ActiveBadge } from '../../components/status-badge';
import { TruncatedText, TruncatedTextWith } from '../../components/truncated-text';
import type { ListedUser } from './users.api';

/** Spec §3 referrer display: a null referrer name means 'Direct'. */
export function referrerLabel(u: ListedUser): string {
  if (u.referrerName) return u.referrerName;
  return u.referredBy ? `User #${u.referredBy}` : 'Direct';
}

export interface UserRowActions {
  /** Sample rows (shown when loading failed) can't be changed. */
  readOnly: boolean;
  onDownline: (u: ListedUser) => void;
  onNetwork: (u: ListedUser) => void;
  onEdit: (u: ListedUser) => void;
  onDelete: (u: ListedUser) => void;
}

/**
 * The users table (spec §2). Long names, emails and referrers are cut with the whole text on hover
 * and focus (issue 15 item 3), so the columns after them stay on screen. The headers with a `sort`
 * key sort the list on the server (S.No: registration order).
 */
export function userColumns(offset: number, a: UserRowActions): Column<ListedUser>[] {
  return [
    { header: 'S.No', cell: (_u, i) => offset + i + 1, width: 70, sort: 'userId' },
    {
      header: 'Name',
      sort: 'fullName',
      cell: (u) => (
        <TruncatedTextWith
          fw={500}
          maxWidth={170}
          beside={
            <Button size="compact-xs" variant="light" onClick={() => a.onDownline(u)} disabled={a.readOnly} style={{ flexShrink: 0 }}>
              Downline
            </Button>
          }
        >
          {u.fullName}
        </TruncatedTextWith>
      ),
    },
    { header: 'Email', sort: 'email', cell: (u) => <TruncatedText maxWidth={190}>{u.email}</TruncatedText> },
    { header: 'Phone', cell: (u) => u.phone },
    { header: 'Referred By', cell: (u) => <TruncatedText maxWidth={160}>{referrerLabel(u)}</TruncatedText> },
    { header: 'Status', sort: 'status', cell: (u) => <ActiveBadge active={u.status} /> },
    { header: 'Level', sort: 'level', cell: (u) => (u.level === null || u.level === undefined ? 'N/A' : u.level) },
    {
      header: 'Actions',
      cell: (u) => (
        <RowActions>
          {!a.readOnly && (
            <HoverHint label="Member page and genealogy" focus>
              <ActionIcon variant="subtle" component={Link} to={memberPath(u.userId)} aria-label={`Open ${u.fullName}`}>
                <IconUserCircle size={18} aria-hidden />
              </ActionIcon>
            </HoverHint>
          )}
          <RowAction label="Network" name={`Network of ${u.fullName}`} icon={<IconHierarchy size={18} aria-hidden />} onClick={() => a.onNetwork(u)} disabled={a.readOnly} />
          <RowAction label="Edit" name={`Edit ${u.fullName}`} icon={<IconEdit size={18} aria-hidden />} onClick={() => a.onEdit(u)} disabled={a.readOnly} />
          <RowAction label="Delete" name={`Delete ${u.fullName}`} icon={<IconTrash size={18} aria-hidden />} color="red" onClick={() => a.onDelete(u)} disabled={a.readOnly} />
        </RowActions>
      ),
    },
  ];
}
