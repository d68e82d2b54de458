import { ActionIcon, Badge, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconEdit, IconLogout, IconMailForward, IconUserCheck, IconUserCog, IconUserOff } from '@tabler/icons-react';
import type { StaffMember } from '../../../contract/staff';
import type { Column } from '../../components/data-table';
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
  if (m.passwordSet) return null;
  return m.invitePending ? (
    <Badge tt="none" variant="light" color="blue">Invitation pending</Badge>
  ) : (
    <Badge tt="none" variant="light" color="orange">Invitation expired</Badge>
  );
}

export function staffColumns(offset: number, a: StaffActions): Column<StaffMember>[] {
  return [
    { header: 'S.No', cell: (_m, i) => offset + i + 1, width: 70 },
    {
      header: 'Name',
      cell: (m) => (
        <Group gap="xs" wrap="nowrap">
          <Text size="sm" fw={500}>{m.fullName}</Text>
          {m.userId === a.selfId && <Badge tt="none" variant="outline" size="sm">You</Badge>}
        </Group>
      ),
    },
    { header: 'Email', cell: (m) => m.email },
    { header: 'Role', cell: (m) => m.role ?? <Text size="sm" c="dimmed">No role (no access)</Text> },
    {
      header: 'Status',
      cell: (m) => (
        <Stack gap={4} align="flex-start">
          <Badge tt="none" variant="light" color={m.status ? 'teal' : 'gray'}>{m.status ? 'Active' : 'Inactive'}</Badge>
          {invitation(m)}
        </Stack>
      ),
    },
    { header: 'Last sign-in', cell: (m) => (m.lastSignIn ? formatDateTime(m.lastSignIn) : 'Never') },
    {
      header: 'Two-factor',
      cell: (m) => (
        <Badge tt="none" variant="light" color={m.twoFactorEnabled ? 'teal' : 'gray'}>{m.twoFactorEnabled ? 'On' : 'Off'}</Badge>
      ),
    },
    {
      header: 'Actions',
      cell: (m) => {
        const self = m.userId === a.selfId;
        return (
          <Group gap={4} wrap="nowrap">
            <Tooltip label={self ? 'You cannot change your own role' : 'Change role'}>
              <ActionIcon variant="subtle" aria-label={`Change role of ${m.fullName}`} onClick={() => a.onRole(m)} disabled={self}>
                <IconUserCog size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Edit name and email">
              <ActionIcon variant="subtle" aria-label={`Edit ${m.fullName}`} onClick={() => a.onEdit(m)}>
                <IconEdit size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
            {m.status ? (
              <Tooltip label={self ? 'You cannot deactivate yourself' : 'Deactivate'}>
                <ActionIcon variant="subtle" color="red" aria-label={`Deactivate ${m.fullName}`} onClick={() => a.onStatus(m)} disabled={self}>
                  <IconUserOff size={18} aria-hidden />
                </ActionIcon>
              </Tooltip>
            ) : (
              <Tooltip label="Reactivate">
                <ActionIcon variant="subtle" color="teal" aria-label={`Reactivate ${m.fullName}`} onClick={() => a.onStatus(m)}>
                  <IconUserCheck size={18} aria-hidden />
                </ActionIcon>
              </Tooltip>
            )}
            <Tooltip label="Sign out everywhere">
              <ActionIcon variant="subtle" aria-label={`Sign out ${m.fullName} everywhere`} onClick={() => a.onSignOut(m)}>
                <IconLogout size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
            {!m.passwordSet && (
              <Tooltip label="Resend invitation">
                <ActionIcon variant="subtle" aria-label={`Resend invitation to ${m.fullName}`} onClick={() => a.onResend(m)} disabled={!m.status}>
                  <IconMailForward size={18} aria-hidden />
                </ActionIcon>
              </Tooltip>
            )}
          </Group>
        );
      },
    },
  ];
}
