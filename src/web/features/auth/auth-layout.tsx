import type { ReactNode } from 'react';
import { Box, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';

interface AuthLayoutProps {
  title: string;
  subtitle?: string;
  /** The card's widest size in pixels. */
  width?: number;
  children: ReactNode;
}

/** The frame of every public screen: a centred card on the brand gradient. */
export function AuthLayout({ title, subtitle, width = 440, children }: AuthLayoutProps) {
  return (
    <Box
      component="main"
      mih="100vh"
      p="md"
      style={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        background:
          'radial-gradient(circle at 15% 20%, rgba(255,255,255,0.12), transparent 40%), linear-gradient(135deg, var(--mantine-color-indigo-9) 0%, var(--mantine-color-indigo-7) 45%, var(--mantine-color-cyan-7) 100%)',
      }}
    >
      <Paper w="100%" maw={width} p={{ base: 'lg', sm: 'xl' }} radius="lg" shadow="xl">
        <Stack align="center" gap={6} mb="xl">
          <ThemeIcon size={60} radius="xl" variant="gradient" gradient={{ from: 'indigo.7', to: 'cyan.6', deg: 135 }} aria-hidden>
            <IconShieldLock size={32} />
          </ThemeIcon>
          <Title order={1} size="h2" ta="center">
            {title}
          </Title>
          {subtitle && (
            <Text c="dimmed" ta="center">
              {subtitle}
            </Text>
          )}
        </Stack>
        {children}
      </Paper>
    </Box>
  );
}
