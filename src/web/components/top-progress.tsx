import { Box } from '@mantine/core';
import { useIsFetching, useIsMutating } from '@tanstack/react-query';

/** A thin bar across the top of the page while any data is loading or being saved. */
export function TopProgress() {
  const busy = useIsFetching() + useIsMutating() > 0;
  if (!busy) return null;
  return (
    <Box role="progressbar" aria-label="Loading" className="top-progress">
      <span />
    </Box>
  );
}
