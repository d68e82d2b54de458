import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { PASSWORD_MESSAGES, PASSWORD_MIN_LENGTH } from '../../../contract/auth';
import { ApiError, errorMessage, serverFieldErrors, type FieldErrors } from '../../lib/api-client';
import { useChangePassword } from './account.api';

/**
 * The account changes its own password (issue 24): the current one again, the new one twice. The
 * server checks the new one against the password policy (common passwords, the account's email)
 * and signs out the account's other sessions; this one stays signed in.
 */
export function ChangePasswordSection({ onMessage }: { onMessage: (message: string) => void }) {
  const change = useChangePassword();
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (change.isPending) return;
    change.reset();
    const found: FieldErrors = {};
    if (!currentPassword) found.currentPassword = 'Enter your current password';
    if (newPassword.length < PASSWORD_MIN_LENGTH) found.newPassword = PASSWORD_MESSAGES.short;
    else if (newPassword.length > 256) found.newPassword = PASSWORD_MESSAGES.long;
    if (confirm !== newPassword) found.confirm = 'Passwords do not match';
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: (res) => {
          setCurrent('');
          setNew('');
          setConfirm('');
          onMessage(res.message);
        },
        onError: (err) => setErrors(serverFieldErrors(err)),
      },
    );
  };

  // A refusal about one field shows under it; anything else above the form.
  const fieldRefusal = change.error instanceof ApiError && change.error.errors.length > 0;
  const error = change.isError && !fieldRefusal ? errorMessage(change.error, 'Could not change your password. Please try again.') : null;
  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="password-heading">
      <form onSubmit={submit} noValidate aria-label="Change password">
        <Stack gap="sm">
          <Title order={2} size="h4" id="password-heading">
            Password
          </Title>
          <Text size="sm">
            {`At least ${PASSWORD_MIN_LENGTH} characters. Changing it signs out your other sessions; this one stays signed in.`}
          </Text>
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          <Group align="flex-start" grow>
            <PasswordField label="Current password" autoComplete="current-password" value={currentPassword} onChange={setCurrent} error={errors.currentPassword} />
            <PasswordField label="New password" autoComplete="new-password" value={newPassword} onChange={setNew} error={errors.newPassword} />
            <PasswordField label="Confirm new password" autoComplete="new-password" value={confirm} onChange={setConfirm} error={errors.confirm} />
          </Group>
          <Group>
            <Button type="submit" loading={change.isPending}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

interface PasswordFieldProps {
  label: string;
  autoComplete: 'current-password' | 'new-password';
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
}

function PasswordField({ label, autoComplete, value, onChange, error }: PasswordFieldProps) {
  return <PasswordInput label={label} autoComplete={autoComplete} value={value} onChange={(e) => onChange(e.currentTarget.value)} error={error} />;
}
