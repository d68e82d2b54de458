import { Center, Loader, Stack, Text, VisuallyHidden } from '@mantine/core';

export function PageLoader({ label }: { label?: string }) {
  return (
    <Center mih="60vh" role="status" aria-live="polite">
      <Stack align="center" gap="sm">
        <Loader size="lg" type="dots" aria-hidden />
        {label ? <Text c="dimmed">{label}</Text> : <VisuallyHidden>Loading</VisuallyHidden>}
      </Stack>
    </Center>
  );
}
