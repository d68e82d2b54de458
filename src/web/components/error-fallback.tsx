import { Component, useEffect, type ErrorInfo, type ReactNode } from 'react';
import { Alert, Button, Code, Container, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { useRouteError } from 'react-router';
import { loadStylesheet } from '../lib/stylesheet';

export function ErrorFallback({ error }: { error: unknown }) {
  // On the prerendered sign-in page the whole stylesheet may not be there yet (lib/stylesheet.ts).
  useEffect(() => void loadStylesheet(), []);
  const details = error instanceof Error ? error.message : String(error);
  return (
    <Container size="sm" py="xl">
      <Alert color="red" variant="light" radius="md" icon={<IconAlertTriangle aria-hidden />} role="alert">
        <Stack gap="sm">
          <Title order={2} size="h4">
            Something went wrong
          </Title>
          <Text>We're having trouble with this component. Please try refreshing the page.</Text>
          <details>
            <summary>Error details</summary>
            <Code block mt="xs">
              {details}
            </Code>
          </details>
          <Button
            variant="light"
            color="red"
            leftSection={<IconRefresh size={16} aria-hidden />}
            onClick={() => window.location.reload()}
            w="fit-content"
          >
            Refresh page
          </Button>
        </Stack>
      </Alert>
    </Container>
  );
}

/** For the router's errorElement: a failure anywhere in route rendering or loading. */
export function RouteErrorFallback() {
  return <ErrorFallback error={useRouteError()} />;
}

interface ErrorBoundaryState {
  error: unknown;
}

/** Keeps the rest of the screen (e.g. the layout shell) alive when one part crashes. */
export class ErrorBoundary extends Component<{ children: ReactNode }, ErrorBoundaryState> {
  state: ErrorBoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { error };
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  render() {
    return this.state.error ? <ErrorFallback error={this.state.error} /> : this.props.children;
  }
}
