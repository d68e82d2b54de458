import { useState, type FormEvent, type ReactNode } from 'react';
import { Alert, Button, PasswordInput, Stack } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck, IconKey } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { resetPasswordBody } from '../../../contract/auth';
import { ErrorAlert } from '../../components/error-alert';
import { serverFieldErrors, type FieldErrors } from '../../lib/api-client';
import { useResetPassword } from './auth.api';
import { AuthLayout } from './auth-layout';
import { schemaErrors } from './form-errors';
import { BackToSignIn, PASSWORD_HINT, SubmitButton } from './form-parts';

const PASSWORD_FIELDS = [
  { name: 'newPassword', label: 'New password' },
  { name: 'confirmPassword', label: 'Confirm password' },
] as const;

interface SetPasswordScreenProps {
  title: string;
  subtitle: string;
  submitLabel: string;
  busyLabel: string;
  /** Shown when the link has no token, or one the form cannot send. */
  invalidLink: ReactNode;
  failure: string;
}

/**
 * A password chosen through a single-use link (`?token=`): the reset link of "forgot password",
 * and a staff member's invitation. Both are consumed by POST /users/reset-password.
 */
export function SetPasswordScreen({ title, subtitle, submitLabel, busyLabel, invalidLink, failure }: SetPasswordScreenProps) {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const [passwords, setPasswords] = useState({ newPassword: '', confirmPassword: '' });
  const { newPassword, confirmPassword } = passwords;
  const [errors, setErrors] = useState<FieldErrors>({});
  const reset = useResetPassword();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reset.isPending) return;
    const parsed = resetPasswordBody.safeParse({ token, newPassword });
    const found = parsed.success ? {} : schemaErrors(parsed.error);
    if (newPassword !== confirmPassword) found.confirmPassword = 'Passwords do not match';
    setErrors(found);
    if (parsed.success && !found.confirmPassword) {
      // A password the server refuses (too common, too simple) is shown under its field.
      reset.mutate(parsed.data, { onError: (error) => setErrors(serverFieldErrors(error)) });
    }
  };

  if (reset.isSuccess) {
    return (
      <AuthLayout title={title}>
        <Stack gap="md">
          <Alert color="teal" variant="light" icon={<IconCircleCheck aria-hidden />} role="status">
            {reset.data.message}
          </Alert>
          <Button component={Link} to="/signin" size="md" fullWidth>
            Back to sign in
          </Button>
        </Stack>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={title} subtitle={subtitle}>
      <form onSubmit={submit} noValidate aria-label={title}>
        <Stack gap="md">
          {(errors.token || !token) && (
            <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert">
              {invalidLink}
            </Alert>
          )}
          {!errors.newPassword && <ErrorAlert error={reset.error} fallback={failure} />}
          {PASSWORD_FIELDS.map(({ name, label }) => (
            <PasswordInput
              key={name}
              label={label}
              autoComplete="new-password"
              value={passwords[name]}
              onChange={(event) => {
                const value = event.currentTarget.value;
                setPasswords((current) => ({ ...current, [name]: value }));
              }}
              error={errors[name]}
              description={name === 'newPassword' ? PASSWORD_HINT : undefined}
              withAsterisk
            />
          ))}
          <SubmitButton pending={reset.isPending} label={submitLabel} busyLabel={busyLabel} icon={<IconKey size={18} aria-hidden />} disabled={!token} />
          <BackToSignIn />
        </Stack>
      </form>
    </AuthLayout>
  );
}
