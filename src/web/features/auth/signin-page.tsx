import { useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, Checkbox, Group, Loader, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconAt, IconLock, IconLogin } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../../lib/api-client';
import { saveSession } from '../../lib/session';
import { meQuery, useLogin } from './auth.api';
import { AuthLayout } from './auth-layout';
import type { FieldErrors } from './form-errors';

// Checked here rather than with the contract's zod schema, so that the sign-in route loads no zod
// (its size budget, vite-budget.ts); the server validates with the schema all the same.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function validate(email: string, password: string): FieldErrors {
  const errors: FieldErrors = {};
  if (!email.trim()) errors.email = 'Email is required';
  else if (!EMAIL.test(email.trim())) errors.email = 'Enter a valid email address';
  if (!password) errors.password = 'Password is required';
  return errors;
}

export default function SignInPage() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [rememberMe, setRememberMe] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const login = useLogin();
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (login.isPending) return;
    const found = validate(email, password);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    login.mutate({ email: email.trim().toLowerCase(), password, rememberMe }, {
      onSuccess: ({ token, user }) => {
        saveSession(token, user);
        queryClient.setQueryData(meQuery(token).queryKey, user);
        navigate('/', { replace: true });
      },
    });
  };

  return (
    <AuthLayout title="Admin Portal" subtitle="Secure access to financial dashboard">
      <form onSubmit={submit} noValidate aria-label="Sign in">
        <Stack gap="md">
          {login.isError && (
            <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert">
              {errorMessage(login.error, 'Authentication failed. Please check your credentials.')}
            </Alert>
          )}
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            placeholder="Enter your email"
            leftSection={<IconAt size={16} aria-hidden />}
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            error={errors.email}
            withAsterisk
            data-autofocus
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            placeholder="Enter your password"
            leftSection={<IconLock size={16} aria-hidden />}
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            error={errors.password}
            withAsterisk
          />
          <Group justify="space-between">
            <Checkbox
              label="Remember me"
              checked={rememberMe}
              onChange={(event) => setRememberMe(event.currentTarget.checked)}
            />
            <Anchor component={Link} to="/forgot-password" size="sm">
              Forgot password?
            </Anchor>
          </Group>
          <Button
            type="submit"
            size="md"
            fullWidth
            aria-busy={login.isPending}
            leftSection={login.isPending ? <Loader size={16} color="white" aria-hidden /> : <IconLogin size={18} aria-hidden />}
          >
            {login.isPending ? 'Accessing Portal...' : 'Access Portal'}
          </Button>
          <Text size="sm" c="dimmed" ta="center">
            No account yet?{' '}
            <Anchor component={Link} to="/signup" size="sm">
              Create your account
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthLayout>
  );
}
