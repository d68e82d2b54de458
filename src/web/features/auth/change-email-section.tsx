import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { errorMessage } from '../../lib/api-client';
import { useAuth } from './auth-context';
import { useChangeEmail } from './account.api';
import { looksLikeEmail } from '../../lib/email';


/**
 * The account changes its own sign-in email (staff managers change it on the Staff screen). The
 * password is asked again; the change takes effect when the link mailed to the new address is
 * followed (the server's answer says so), and reset links sent to the old address then stop working.
 */
export function ChangeEmailSection({ onMessage }: { onMessage: (message: string) => void }) {
  const { user } = useAuth();
  const change = useChangeEmail();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.reset();
    if (!looksLikeEmail(email)) return setProblem('Enter a valid email address');
    if (!password) return setProblem('Enter your password');
    setProblem(null);
    change.mutate(
      { email: email.trim(), password },
      {
        onSuccess: (res) => {
          setEmail('');
          setPassword('');
          onMessage(res.message);
        },
      },
    );
  };

  const error = problem ?? (change.isError ? errorMessage(change.error, 'Could not change your email. Please try again.') : null);
  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="email-heading">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h4" id="email-heading">
            Sign-in email
          </Title>
          <Text size="sm">
            You sign in as <strong>{user?.email}</strong>. We mail a link to the new address: your sign-in email changes when
            you follow it, and reset links already sent to this one then stop working.
          </Text>
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          <Group align="flex-end" grow>
            <TextInput
              label="New email"
              type="email"
              autoComplete="email"
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
            />
            <PasswordInput
              label="Your password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
            />
          </Group>
          <Group>
            <Button type="submit" loading={change.isPending}>
              Change email
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
