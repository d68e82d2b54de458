import { Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconHourglassHigh } from '@tabler/icons-react';

/** Stands in for a screen that is not built yet: no fake data. */
export default function ComingSoonPage({ title }: { title: string }) {
  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        {title}
      </Title>
      <Paper withBorder radius="md" p="xl">
        <Stack align="center" gap="xs" py="xl">
          <ThemeIcon size={56} radius="xl" variant="light" aria-hidden>
            <IconHourglassHigh size={30} />
          </ThemeIcon>
          <Text fw={600} size="lg">
            Coming soon
          </Text>
          <Text c="dimmed" ta="center">
            This screen is being built.
          </Text>
        </Stack>
      </Paper>
    </Stack>
  );
}
