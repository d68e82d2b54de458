import { useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, Checkbox, Group, Loader, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconAt, IconKey, IconLock, IconLogin, IconShieldLock } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useNavigate } from 'react-router';
import { errorMessage } from '../../lib/api-client';
import { saveSession } from '../../lib/session';
import { loadStylesheet } from '../../lib/stylesheet';
import { PATHS } from '../../lib/paths';
import type { FieldErrors } from '../../lib/api-client';
import { meQuery, needsTwoFactorCode, prefetchAuthClient, useLogin } from './auth.api';
import { AuthLayout } from './auth-layout';
import { looksLikeEmail } from '../../lib/email';
import { useHydrated } from '../../components/use-hydrated';
import { returnPathOf } from './return-path';

// Checked here rather than with the contract's zod schema, so that the sign-in route loads no zod
// (its size budget, vite-budget.ts); the server validates with the schema all the same.
function validate(email: string, password: string): FieldErrors {
  const errors: FieldErrors = {};
  if (!email.trim()) errors.email = 'Email is required';
  else if (!looksLikeEmail(email)) errors.email = 'Enter a valid email address';
  if (!password) errors.password = 'Password is required';
  return errors;
}

/** The second factor: a 6-digit code, or a recovery code (`abcde-fghij`); the server's own pattern. */
const CODE = /^(\d{6}|[A-Za-z2-7]{5}-?[A-Za-z2-7]{5})$/;

export default function SignInPage() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [rememberMe, setRememberMe] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  /** After a right password for an account with two-factor on, the form asks for the code. */
  const [step, setStep] = useState<'password' | 'code'>('password');
  const [code, setCode] = useState('');
  const login = useLogin();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // A link opened while signed out (the guard's state): where a successful sign-in returns to.
  const returnTo = returnPathOf(useLocation().state);
  // The page comes prerendered (prerender.tsx): nothing can be typed or sent before it hydrates.
  const hydrated = useHydrated();

  const send = (withCode?: string) =>
    login.mutate({ email: email.trim().toLowerCase(), password, rememberMe, ...(withCode ? { code: withCode } : {}) }, {
      onSuccess: ({ token, user }) => {
        saveSession(token, user);
        queryClient.setQueryData(meQuery(token).queryKey, user);
        const state = returnTo ? { from: returnTo } : undefined;
        if (user.twoFactorSetupRequired) navigate(PATHS.twoFactorSetup, { replace: true, state });
        else navigate(returnTo ?? '/', { replace: true });
      },
      onError: (error) => {
        if (needsTwoFactorCode(error)) setStep('code');
      },
    });

  // The page loads these only once someone uses the form (typing, a click: not the autofocus), for
  // the page's load to be only the sign-in screen's (Lighthouse, issue 23): the typed client the
  // sign-in call goes through, and the whole stylesheet (an error, the code step, the next screen).
  const prepare = () => void Promise.all([prefetchAuthClient(), loadStylesheet()]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    prepare();
    if (login.isPending) return;
    if (step === 'code') {
      const trimmed = code.trim();
      const found: FieldErrors = CODE.test(trimmed) ? {} : { code: 'Enter the 6-digit code from your authenticator app' };
      setErrors(found);
      if (!found.code) send(trimmed);
      return;
    }
    const found = validate(email, password);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    send();
  };

  const startOver = () => {
    setStep('password');
    setCode('');
    setPassword('');
    setErrors({});
    login.reset();
  };

  // Asked for the code: not an error. A wrong code, or anything else, is.
  const askedForCode = step === 'code' && needsTwoFactorCode(login.error) && !login.variables?.code;
  const busyLabel = step === 'code' ? 'Verifying...' : 'Accessing Portal...';

  return (
    <AuthLayout title="Admin Portal" subtitle="Secure access to financial dashboard">
      <form onSubmit={submit} onInput={prepare} onPointerDown={prepare} noValidate aria-label="Sign in">
        <fieldset disabled={!hydrated} style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
          <Stack gap="md">
            {login.isError && !askedForCode && (
              <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert">
                {errorMessage(login.error, 'Authentication failed. Please check your credentials.')}
              </Alert>
            )}
            {step === 'code' ? (
              <>
                <Alert color="indigo" variant="light" icon={<IconShieldLock aria-hidden />} role="status" title="Two-factor sign-in">
                  Enter the 6-digit code from your authenticator app for {email.trim().toLowerCase()}. Lost your phone? Enter one
                  of your recovery codes instead.
                </Alert>
                <TextInput
                  label="Two-factor code"
                  autoComplete="one-time-code"
                  placeholder="123456"
                  leftSection={<IconKey size={16} aria-hidden />}
                  value={code}
                  onChange={(event) => setCode(event.currentTarget.value)}
                  error={errors.code}
                  withAsterisk
                  autoFocus
                  maxLength={11}
                  spellCheck={false}
                />
              </>
            ) : (
              <>
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
              </>
            )}
            <Button
              type="submit"
              size="md"
              fullWidth
              aria-busy={login.isPending}
              leftSection={login.isPending ? <Loader size={16} color="white" aria-hidden /> : <IconLogin size={18} aria-hidden />}
            >
              {login.isPending ? busyLabel : step === 'code' ? 'Verify' : 'Access Portal'}
            </Button>
            {step === 'code' ? (
              <Button variant="subtle" onClick={startOver} disabled={login.isPending}>
                Use a different account
              </Button>
            ) : (
              <Text size="sm" c="dimmed" ta="center">
                No account yet?{' '}
                <Anchor component={Link} to="/signup" size="sm">
                  Create your account
                </Anchor>
              </Text>
            )}
          </Stack>
        </fieldset>
      </form>
    </AuthLayout>
  );
}
