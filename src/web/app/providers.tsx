import { useState, type ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { AuthProvider } from '../features/auth/auth-context';
import { contrastResolver } from './contrast';
import { createQueryClient } from './query-client';
import { theme } from './theme';

/** The colour scheme the panel starts in: the system's, until the header's toggle chooses one. */
export const DEFAULT_COLOR_SCHEME = 'auto';

export function AppProviders({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <MantineProvider theme={theme} defaultColorScheme={DEFAULT_COLOR_SCHEME} cssVariablesResolver={contrastResolver}>
      <QueryClientProvider client={client}>
        <AuthProvider>{children}</AuthProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
