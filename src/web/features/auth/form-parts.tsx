import type { ReactNode } from 'react';
import { Anchor, Button, Loader, Text } from '@mantine/core';
import { Link } from 'react-router';

/** Under a new password field: the rule the server applies (contract PASSWORD_MIN_LENGTH, server password-policy.ts). */
export const PASSWORD_HINT = 'At least 10 characters, and not a common password';

interface SubmitButtonProps {
  pending: boolean;
  label: string;
  busyLabel: string;
  icon: ReactNode;
  disabled?: boolean;
}

/** The full-width submit button of the sign-in screens: a spinner and the busy label while sending. */
export function SubmitButton({ pending, label, busyLabel, icon, disabled }: SubmitButtonProps) {
  return (
    <Button
      type="submit"
      size="md"
      fullWidth
      disabled={disabled}
      aria-busy={pending}
      leftSection={pending ? <Loader size={16} color="white" aria-hidden /> : icon}
    >
      {pending ? busyLabel : label}
    </Button>
  );
}

export function BackToSignIn() {
  return (
    <Text size="sm" ta="center">
      <Anchor component={Link} to="/signin" size="sm">
        Back to sign in
      </Anchor>
    </Text>
  );
}
