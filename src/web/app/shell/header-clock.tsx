import { useEffect, useState } from 'react';
import { Stack, Text } from '@mantine/core';
import { formatClockDate, formatClockTime } from '../../lib/format';

const TICK_MS = 1000;

export function HeaderClock() {
  const [now, setNow] = useState(() => new Date());

  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), TICK_MS);
    return () => window.clearInterval(timer);
  }, []);

  return (
    <Stack gap={0} align="flex-end" visibleFrom="md">
      <Text component="time" dateTime={now.toISOString()} fw={600} size="sm" ff="monospace" aria-label="Current time">
        {formatClockTime(now)}
      </Text>
      <Text size="xs" c="dimmed">
        {formatClockDate(now)}
      </Text>
    </Stack>
  );
}
