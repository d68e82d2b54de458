import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck, IconMailCheck } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { ErrorAlert } from '../../components/error-alert';
import { PATHS } from '../../lib/paths';
import { useConfirmEmail } from './auth.api';
import { AuthLayout } from './auth-layout';
import { BackToSignIn, SubmitButton } from './form-parts';

/**
 * The link a registration, or a change of sign-in email, mails (`/confirm-email?token=`).
 * Confirming takes a click, not just opening the page: mail scanners that open links must not
 * confirm an address on their own.
 */
export default function ConfirmEmailPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const confirm = useConfirmEmail();

  if (confirm.isSuccess) {
    return (
      <AuthLayout title="Email address confirmed">
        <Stack gap="md">
          <Alert color="teal" variant="light" icon={<IconCircleCheck aria-hidden />} role="status">
            {confirm.data.message}
          </Alert>
          <Button component={Link} to={PATHS.signIn} size="md" fullWidth>
            Sign in
          </Button>
        </Stack>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Confirm your email address" subtitle="Confirm that this address belongs to your account.">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!confirm.isPending && token.length >= 10) confirm.mutate(token);
        }}
        noValidate
        aria-label="Confirm your email address"
      >
        <Stack gap="md">
          {token.length < 10 && (
            <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert">
              This confirmation link is invalid or incomplete. Open the link from the mail again, or use Forgot password on the sign-in
              screen to get a new link.
            </Alert>
          )}
          <ErrorAlert error={confirm.error} fallback="Could not confirm the address. Please try again." />
          <Text size="sm" c="dimmed">
            If you did not register, close this page: the account stays unconfirmed and cannot sign in.
          </Text>
          <SubmitButton
            pending={confirm.isPending}
            label="Confirm email address"
            busyLabel="Confirming..."
            icon={<IconMailCheck size={18} aria-hidden />}
            disabled={token.length < 10}
          />
          <BackToSignIn />
        </Stack>
      </form>
    </AuthLayout>
  );
}
