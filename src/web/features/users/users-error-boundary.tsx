import { Component, type ReactNode } from 'react';
import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';

/** Spec §8: a crash of the users screen shows its own message instead of a blank page. */
export class UsersErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidCatch(error: unknown) {
    console.error(error);
  }

  render() {
    if (!this.state.failed) return this.props.children;
    return (
      <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
        <Stack gap="sm" align="flex-start">
          <Title order={2} size="h4">
            Something went wrong
          </Title>
          <Text>We're having trouble loading the users list. Please try refreshing the page.</Text>
          <Button variant="light" color="red" onClick={() => window.location.reload()}>
            Refresh page
          </Button>
        </Stack>
      </Alert>
    );
  }
}
