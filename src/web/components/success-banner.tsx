import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';

/** Spec §4/§9: success banners vanish after 3 seconds. */
export const SUCCESS_BANNER_MS = 3000;

/** `const [success, showSuccess] = useSuccessBanner();` then `<SuccessBanner message={success} />`. */
export function useSuccessBanner(): [string | null, (message: string) => void] {
  const [message, setMessage] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const show = useCallback((text: string) => {
    clearTimeout(timer.current);
    setMessage(text);
    timer.current = setTimeout(() => setMessage(null), SUCCESS_BANNER_MS);
  }, []);
  return [message, show];
}

export function SuccessBanner({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert color="teal" variant="light" icon={<IconCircleCheck aria-hidden />} role="status" mb="md">
      {message}
    </Alert>
  );
}
