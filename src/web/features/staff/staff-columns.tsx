import { Badge, Stack, Text } from '@mantine/core';
import { IconEdit, IconLogout, IconMailForward, IconUserCheck, IconUserCog, IconUserOff } from '@tabler/icons-react';
import type { StaffMember } from '../../../contract/staff';
import type { Column } from '../../components/data-table';
import { RowAction, RowActions } from '../../components/row-actions';
import { ActiveBadge, StatusBadge } from '../../components/status-badge';
import { TruncatedText, TruncatedTextWith } from '../../components/truncated-text';
import { formatDateTime } from '../../lib/format';

export interface StaffActions {
  /** The signed-in account: it can't change its own role or switch itself off. */
  selfId: number | null;
  onRole: (m: StaffMember) => void;
  onEdit: (m: StaffMember) => void;
  onStatus: (m: StaffMember) => void;
  onSignOut: (m: StaffMember) => void;
  onResend: (m: StaffMember) => void;
}

function invitation(m: StaffMember) {
  // A self-registration whose email link was not followed: no role until it is; inviting the address takes it over.
  if (m.unconfirmed) return <StatusBadge tone="warning">Email not confirmed</StatusBadge>;
  if (m.passwordSet) return null;
  return m.invitePending ? (
    <StatusBadge tone="info">Invitation pending</StatusBadge>
  ) : (
    <StatusBadge tone="warning">Invitation expired</StatusBadge>
  );
}

export function staffColumns(offset: number, a: StaffActions): Column<StaffMember>[] {
  return [
    { header: 'S.No', cell: (_m, i) => offset + i + 1, width: 70 },
    {
      header: 'Name',
      cell: (m) => (
        <TruncatedTextWith fw={500} maxWidth={220} beside={m.userId === a.selfId && <Badge tt="none" variant="outline" size="sm">You</Badge>}>
          {m.fullName}
        </TruncatedTextWith>
      ),
      sort: 'fullName',
    },
    { header: 'Email', cell: (m) => <TruncatedText maxWidth={240}>{m.email}</TruncatedText>, sort: 'email' },
    {
      header: 'Role',
      cell: (m) => (m.role ? <TruncatedText maxWidth={160}>{m.role}</TruncatedText> : <Text size="sm" c="dimmed">No role (no access)</Text>),
      sort: 'role',
    },
    {
      header: 'Status',
      cell: (m) => (
        <Stack gap={4} align="flex-start">
          <ActiveBadge active={m.status} />
          {invitation(m)}
        </Stack>
      ),
      sort: 'status',
    },
    { header: 'Last sign-in', cell: (m) => (m.lastSignIn ? formatDateTime(m.lastSignIn) : 'Never'), sort: 'lastSignIn' },
    {
      header: 'Two-factor',
      cell: (m) => (
        <StatusBadge tone={m.twoFactorEnabled ? 'positive' : 'neutral'}>{m.twoFactorEnabled ? 'On' : 'Off'}</StatusBadge>
      ),
    },
    {
      header: 'Actions',
      cell: (m) => {
        const self = m.userId === a.selfId;
        return (
          <RowActions>
            <RowAction
              label={self ? 'You cannot change your own role' : m.unconfirmed ? 'Email not confirmed: invite this address instead' : 'Change role'}
              name={`Change role of ${m.fullName}`}
              icon={<IconUserCog size={18} aria-hidden />}
              onClick={() => a.onRole(m)}
              disabled={self || m.unconfirmed}
            />
            <RowAction label="Edit name and email" name={`Edit ${m.fullName}`} icon={<IconEdit size={18} aria-hidden />} onClick={() => a.onEdit(m)} />
            {m.status ? (
              <RowAction
                label={self ? 'You cannot deactivate yourself' : 'Deactivate'}
                name={`Deactivate ${m.fullName}`}
                icon={<IconUserOff size={18} aria-hidden />}
                color="red"
                onClick={() => a.onStatus(m)}
                disabled={self}
              />
            ) : (
              <RowAction
                label="Reactivate"
                name={`Reactivate ${m.fullName}`}
                icon={<IconUserCheck size={18} aria-hidden />}
                color="teal"
                onClick={() => a.onStatus(m)}
              />
            )}
            <RowAction
              label="Sign out everywhere"
              name={`Sign out ${m.fullName} everywhere`}
              icon={<IconLogout size={18} aria-hidden />}
              onClick={() => a.onSignOut(m)}
            />
            {!m.passwordSet && (
              <RowAction
                label="Resend invitation"
                name={`Resend invitation to ${m.fullName}`}
                icon={<IconMailForward size={18} aria-hidden />}
                onClick={() => a.onResend(m)}
                disabled={!m.status}
              />
            )}
          </RowActions>
        );
      },
    },
  ];
}
