import { useState } from 'react';
import { Text } from '@mantine/core';

/** The icon cell: 'No icon' when none is set, 'Image not available' when it fails to load. */
export function ServiceIcon({ src, name }: { src: string | null; name: string }) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  if (!src) {
    return (
      <Text size="sm" c="dimmed">
        No icon
      </Text>
    );
  }
  if (failedSrc === src) {
    return (
      <Text size="sm" c="dimmed">
        Image not available
      </Text>
    );
  }
  return (
    <img
      src={src}
      alt={`${name} icon`}
      width={36}
      height={36}
      style={{ objectFit: 'contain', borderRadius: 6 }}
      onError={() => setFailedSrc(src)}
    />
  );
}
