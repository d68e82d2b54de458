import { Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';

export function NoAccessPage() {
  return (
    <Paper withBorder radius="md" p="xl" maw={560} mx="auto" mt="xl">
      <Stack align="center" gap="sm" py="lg">
        <ThemeIcon size={56} radius="xl" color="orange" variant="light" aria-hidden>
          <IconLock size={30} />
        </ThemeIcon>
        <Title order={1} size="h3">
          No access
        </Title>
        <Text c="dimmed" ta="center">
          Your account does not have permission to view this page. Ask an administrator to give your role access.
        </Text>
      </Stack>
    </Paper>
  );
}
