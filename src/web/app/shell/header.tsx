import { ActionIcon, Avatar, Burger, Button, Group, Kbd, Stack, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { IconLayoutSidebarLeftCollapse, IconLayoutSidebarLeftExpand, IconLogout, IconShieldCheck, IconUserShield } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useAuth } from '../../features/auth/auth-context';
import { useSignOut } from '../../features/auth/auth.api';
import { MemberSearch } from '../../features/network/member-search';
import { initials } from '../../lib/format';
import { ACCOUNT_PATH } from '../../lib/paths';
import { ColorSchemeToggle } from './color-scheme-toggle';
import { HeaderClock } from './header-clock';
import { shortcutLabel } from './search-shortcut';

interface HeaderProps {
  mobileOpened: boolean;
  onToggleMobile: () => void;
  collapsed: boolean;
  onToggleCollapsed: () => void;
}

export function Header({ mobileOpened, onToggleMobile, collapsed, onToggleCollapsed }: HeaderProps) {
  const { user } = useAuth();
  const { signOut, pending: signingOut } = useSignOut();
  const name = user?.fullName ?? '';
  const collapseLabel = collapsed ? 'Expand sidebar' : 'Collapse sidebar';


  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="md">
      <Group gap="sm" wrap="nowrap">
        <Burger opened={mobileOpened} onClick={onToggleMobile} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
        <Tooltip label={collapseLabel}>
          <ActionIcon variant="subtle" color="gray" size="lg" onClick={onToggleCollapsed} aria-label={collapseLabel} visibleFrom="sm">
            {collapsed ? <IconLayoutSidebarLeftExpand size={22} aria-hidden /> : <IconLayoutSidebarLeftCollapse size={22} aria-hidden />}
          </ActionIcon>
        </Tooltip>
        <Group gap="xs" wrap="nowrap">
          <ThemeIcon size="lg" radius="md" variant="gradient" gradient={{ from: 'indigo.7', to: 'cyan.6', deg: 135 }} aria-hidden>
            <IconShieldCheck size={20} />
          </ThemeIcon>
          <Text fw={700} size="lg" visibleFrom="xs">
            Backoffice
          </Text>
        </Group>
      </Group>

      <Group gap="xs" wrap="nowrap">
        <MemberSearch />
        {/* Issue 24: the search shortcut, where it can be seen. */}
        <Tooltip label="Press / or the shortcut to search: the page's list when it has a search box, members elsewhere">
          <Group gap={4} wrap="nowrap" visibleFrom="md" data-testid="search-shortcut-hint">
            <Kbd size="xs">/</Kbd>
            <Kbd size="xs">{shortcutLabel()}</Kbd>
          </Group>
        </Tooltip>
      </Group>

      <Group gap="lg" wrap="nowrap">
        <HeaderClock />
        <ColorSchemeToggle />
        <Group gap="xs" wrap="nowrap">
          <Avatar color="indigo" radius="xl" aria-hidden>
            {initials(name)}
          </Avatar>
          <Stack gap={0} visibleFrom="sm">
            <Text size="sm" fw={600} lh={1.2}>
              {name}
            </Text>
            <Text size="xs" c="dimmed">
              Administrator
            </Text>
          </Stack>
        </Group>
        <Tooltip label="Your account: two-factor sign-in and sessions">
          <ActionIcon component={Link} to={ACCOUNT_PATH} variant="subtle" color="gray" size="lg" aria-label="Your account">
            <IconUserShield size={20} aria-hidden />
          </ActionIcon>
        </Tooltip>
        <Button
          variant="light"
          color="red"
          leftSection={<IconLogout size={16} aria-hidden />}
          onClick={signOut}
          loading={signingOut}
        >
          Logout
        </Button>
      </Group>
    </Group>
  );
}
