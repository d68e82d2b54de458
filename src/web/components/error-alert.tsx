import { Alert, Badge, Button, Group, Text, type AlertProps } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { errorMessage } from '../lib/api-client';

/**
 * The text of a failure: a ready message as is; an error's own server message, else `fallback`,
 * else the error's text (a network failure says "Could not reach the server").
 */
export function messageOf(error: unknown, fallback?: string): string {
  if (typeof error === 'string') return error;
  return errorMessage(error, fallback ?? (error instanceof Error ? error.message : 'An unexpected error occurred'));
}

interface ErrorAlertProps extends Omit<AlertProps, 'title' | 'children' | 'onClose'> {
  /** What failed: an error from a call, or a message; nothing (null, '') shows nothing. */
  error: unknown;
  /** Shown when the error carries no message from the server. */
  fallback?: string;
  /** Put before the message, e.g. 'Failed to load ranks: '. */
  prefix?: string;
  title?: string;
  /** The warning icon of a failed load. */
  withIcon?: boolean;
  onRetry?: () => void;
  /** Makes the alert dismissable. */
  onClose?: () => void;
  /** Sample rows stand in for the failed list: orange, with a 'Sample data' badge. */
  sample?: boolean;
}

/** THE error alert of the panel: load failures, refused actions and form messages. */
export function ErrorAlert({ error, fallback, prefix = '', title, withIcon, onRetry, onClose, sample, color, ...props }: ErrorAlertProps) {
  if (error === null || error === undefined || error === '' || error === false) return null;
  const text = `${prefix}${messageOf(error, fallback)}`;
  return (
    <Alert
      color={color ?? (sample ? 'orange' : 'red')}
      variant="light"
      role="alert"
      title={title}
      icon={withIcon ? <IconAlertTriangle aria-hidden /> : undefined}
      withCloseButton={onClose !== undefined}
      onClose={onClose}
      {...props}
    >
      {sample || onRetry ? (
        <Group gap="sm">
          <Text size="sm">{text}</Text>
          {sample && <Badge color="orange">Sample data</Badge>}
          {onRetry && (
            <Button size="compact-xs" variant="light" color={sample ? 'orange' : 'red'} onClick={onRetry}>
              Retry
            </Button>
          )}
        </Group>
      ) : (
        text
      )}
    </Alert>
  );
}
