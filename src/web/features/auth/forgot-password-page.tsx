import { useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, Loader, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconAt, IconCircleCheck, IconMailForward } from '@tabler/icons-react';
import { Link } from 'react-router';
import { forgotPasswordBody } from '../../../contract/auth';
import { errorMessage } from '../../lib/api-client';
import { useForgotPassword } from './auth.api';
import { AuthLayout } from './auth-layout';
import { schemaErrors } from './form-errors';

export default function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const forgot = useForgotPassword();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (forgot.isPending) return;
    const parsed = forgotPasswordBody.safeParse({ email });
    if (!parsed.success) {
      setError(email.trim() ? schemaErrors(parsed.error).email : 'Email is required');
      return;
    }
    setError(undefined);
    forgot.mutate(parsed.data.email);
  };

  return (
    <AuthLayout title="Forgot password?" subtitle="Enter your account's email address and we will send you a link to reset your password.">
      <form onSubmit={submit} noValidate aria-label="Forgot password">
        <Stack gap="md">
          {forgot.isSuccess && (
            <Alert color="teal" variant="light" icon={<IconCircleCheck aria-hidden />} role="status">
              {forgot.data.message}
            </Alert>
          )}
          {forgot.isError && (
            <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert">
              {errorMessage(forgot.error, 'Could not send the reset link. Please try again.')}
            </Alert>
          )}
          <TextInput
            label="Email address"
            type="email"
            autoComplete="email"
            leftSection={<IconAt size={16} aria-hidden />}
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            error={error}
            withAsterisk
          />
          <Button
            type="submit"
            size="md"
            fullWidth
            aria-busy={forgot.isPending}
            leftSection={forgot.isPending ? <Loader size={16} color="white" aria-hidden /> : <IconMailForward size={18} aria-hidden />}
          >
            {forgot.isPending ? 'Sending...' : 'Send reset link'}
          </Button>
          <Text size="sm" ta="center">
            <Anchor component={Link} to="/signin" size="sm">
              Back to sign in
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthLayout>
  );
}
