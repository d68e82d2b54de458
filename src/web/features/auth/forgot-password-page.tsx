import { useState, type FormEvent } from 'react';
import { Alert, Stack, TextInput } from '@mantine/core';
import { IconAt, IconCircleCheck, IconMailForward } from '@tabler/icons-react';
import { forgotPasswordBody } from '../../../contract/auth';
import { ErrorAlert } from '../../components/error-alert';
import { useForgotPassword } from './auth.api';
import { AuthLayout } from './auth-layout';
import { schemaErrors } from './form-errors';
import { BackToSignIn, SubmitButton } from './form-parts';

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
          <ErrorAlert error={forgot.error} fallback="Could not send the reset link. Please try again." />
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
          <SubmitButton pending={forgot.isPending} label="Send reset link" busyLabel="Sending..." icon={<IconMailForward size={18} aria-hidden />} />
          <BackToSignIn />
        </Stack>
      </form>
    </AuthLayout>
  );
}
