import { useState, type FormEvent, type ReactNode } from 'react';
import { Alert, Anchor, Button, Loader, PasswordInput, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck, IconKey } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { resetPasswordBody } from '../../../contract/auth';
import { errorMessage } from '../../lib/api-client';
import { useResetPassword } from './auth.api';
import { AuthLayout } from './auth-layout';
import { schemaErrors, type FieldErrors } from './form-errors';

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
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const reset = useResetPassword();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reset.isPending) return;
    const parsed = resetPasswordBody.safeParse({ token, newPassword });
    const found = parsed.success ? {} : schemaErrors(parsed.error);
    if (newPassword !== confirmPassword) found.confirmPassword = 'Passwords do not match';
    setErrors(found);
    if (parsed.success && !found.confirmPassword) reset.mutate(parsed.data);
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
          {reset.isError && (
            <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert">
              {errorMessage(reset.error, failure)}
            </Alert>
          )}
          <PasswordInput
            label="New password"
            autoComplete="new-password"
            value={newPassword}
            onChange={(event) => setNewPassword(event.currentTarget.value)}
            error={errors.newPassword}
            withAsterisk
          />
          <PasswordInput
            label="Confirm password"
            autoComplete="new-password"
            value={confirmPassword}
            onChange={(event) => setConfirmPassword(event.currentTarget.value)}
            error={errors.confirmPassword}
            withAsterisk
          />
          <Button
            type="submit"
            size="md"
            fullWidth
            disabled={!token}
            aria-busy={reset.isPending}
            leftSection={reset.isPending ? <Loader size={16} color="white" aria-hidden /> : <IconKey size={18} aria-hidden />}
          >
            {reset.isPending ? busyLabel : submitLabel}
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
