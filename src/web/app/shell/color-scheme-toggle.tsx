import { ActionIcon, Tooltip, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';

/** Follows the system until toggled; the choice is remembered (Mantine keeps it in localStorage). */
export function ColorSchemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const current = useComputedColorScheme('light');
  const label = current === 'dark' ? 'Switch to light mode' : 'Switch to dark mode';
  return (
    <Tooltip label={label}>
      <ActionIcon variant="subtle" color="gray" size="lg" onClick={() => setColorScheme(current === 'dark' ? 'light' : 'dark')} aria-label={label}>
        {current === 'dark' ? <IconSun size={20} aria-hidden /> : <IconMoon size={20} aria-hidden />}
      </ActionIcon>
    </Tooltip>
  );
}
