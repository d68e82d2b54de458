import { useEffect, useRef, useState } from 'react';
import { useDebouncedValue } from '@mantine/hooks';

/**
 * A list's search box: what is typed shows at once; it reaches the list's filters (the address,
 * the server) once typing pauses for `delay` ms, `normalize`d (trimmed, say), and only when it
 * changed since it was last sent.
 */
export function useSearchBox(current: string, write: (value: string) => void, delay: number, normalize: (typed: string) => string = (typed) => typed) {
  const [search, setSearch] = useState(current);
  const [settled] = useDebouncedValue(normalize(search), delay);
  const sent = useRef(settled);
  const writer = useRef(write);
  writer.current = write;
  useEffect(() => {
    if (settled === sent.current) return;
    sent.current = settled;
    writer.current(settled);
  }, [settled]);
  return [search, setSearch] as const;
}
