import { useEffect } from 'react';
import { Badge, Indicator, NavLink, ScrollArea, Stack, Text, Tooltip } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { pendingCountQuery } from '../../features/approvals/approvals.api';
import { formatCount } from '../../lib/format';
import { Link, useLocation } from 'react-router';
import { useAuth } from '../../features/auth/auth-context';
import { PATHS } from '../../lib/paths';
import { visibleNavItems, type NavItem } from '../paths';
import { prefetchScreen, preloadScreen, preloadWhenIdle } from '../screens';
import { NAV_ICONS } from './nav-icons';

function isActive(path: string, pathname: string): boolean {
  return path === '/' ? pathname === '/' : pathname === path || pathname.startsWith(`${path}/`);
}

interface SidebarProps {
  /** Icons only: the desktop sidebar is collapsed. */
  mini: boolean;
  onNavigate: () => void;
}

/**
 * How many requests wait for this operator's decision (issue 24), for one who holds money_approve:
 * asked again every minute and after every decision (a decision refreshes the approvals group).
 * The server counts the pending range of an index, so asking often costs little.
 */
function usePendingCount(enabled: boolean): number {
  const count = useQuery({ ...pendingCountQuery(), enabled });
  return enabled ? (count.data ?? 0) : 0;
}

function SidebarLink({ item, mini, active, onNavigate, waiting = 0 }: {
  item: NavItem; mini: boolean; active: boolean; onNavigate: () => void;
  /** A count beside the entry: the requests waiting for a decision. */
  waiting?: number;
}) {
  const Icon = NAV_ICONS[item.path];
  const queryClient = useQueryClient();
  const waitingText = waiting > 0 ? `${formatCount(waiting)} waiting for your decision` : null;
  const icon = <Icon size={20} stroke={1.6} aria-hidden />;
  const link = (
    <NavLink
      component={Link}
      to={item.path}
      label={mini ? undefined : item.label}
      aria-label={mini || waitingText ? `${item.label}${waitingText ? `, ${waitingText}` : ''}` : undefined}
      rightSection={!mini && waitingText ? (
        <Badge size="sm" color="orange" variant="filled" circle={waiting < 10} aria-hidden>
          {waiting > 99 ? '99+' : formatCount(waiting)}
        </Badge>
      ) : undefined}
      aria-current={active ? 'page' : undefined}
      active={active}
      onClick={onNavigate}
      onPointerEnter={() => void preloadScreen(item.path)}
      onFocus={() => void preloadScreen(item.path)}
      onPointerDown={(event) => {
        if (event.button === 0 && !active) prefetchScreen(item.path, queryClient);
      }}
      leftSection={mini && waitingText ? <Indicator size={8} color="orange" processing={false} aria-hidden>{icon}</Indicator> : icon}
      variant="light"
      styles={{ root: { borderRadius: 'var(--mantine-radius-md)', justifyContent: mini ? 'center' : undefined } }}
    />
  );
  return mini ? (
    <Tooltip label={waitingText ? `${item.label}: ${waitingText}` : item.label} position="right" withArrow>
      {link}
    </Tooltip>
  ) : (
    link
  );
}

export function Sidebar({ mini, onNavigate }: SidebarProps) {
  const { permissions } = useAuth();
  const { pathname } = useLocation();
  const items = visibleNavItems(permissions);
  const waiting = usePendingCount(permissions.includes('money_approve'));
  // The screens one click away load while nothing else runs (screens.ts).
  const paths = items.map((item) => item.path).join(' ');
  useEffect(() => (paths ? preloadWhenIdle(paths.split(' ') as NavItem['path'][]) : undefined), [paths]);
  const groups = [
    { key: 'main', heading: null, items: items.filter((item) => item.group === 'main') },
    { key: 'access', heading: 'Access control', items: items.filter((item) => item.group === 'access') },
  ].filter((group) => group.items.length > 0);

  return (
    <ScrollArea component="nav" aria-label="Main navigation" type="scroll" h="100%">
      <Stack gap={4} p="sm">
        {groups.map((group) => (
          <Stack key={group.key} gap={4} role="group" aria-label={group.heading ?? 'Pages'}>
            {group.heading && !mini && (
              <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="md" pb={4}>
                {group.heading}
              </Text>
            )}
            {group.items.map((item) => (
              <SidebarLink
                key={item.path}
                item={item}
                mini={mini}
                active={isActive(item.path, pathname)}
                onNavigate={onNavigate}
                waiting={item.path === PATHS.approvals ? waiting : 0}
              />
            ))}
          </Stack>
        ))}
      </Stack>
    </ScrollArea>
  );
}
