import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  Alert, Anchor, Box, Button, Center, Code, CopyButton, Group, List, Loader, SimpleGrid, Stack, Text, TextInput, Title,
} from '@mantine/core';
import { IconAlertCircle, IconCheck, IconCopy, IconDeviceMobile, IconShieldCheck } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useNavigate } from 'react-router';
import { ACCOUNT_PATH, PATHS } from '../../lib/paths';
import { ApiError, errorMessage } from '../../lib/api-client';
import { useConfirmTwoFactor, useTwoFactorSetup } from './account.api';
import { useSignOut } from './auth.api';
import { useAuth } from './auth-context';
import { AuthLayout } from './auth-layout';
import { returnPathOf } from './return-path';

/** The secret in groups of four, as authenticator apps show keys: easier to type without a slip. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

/**
 * Two-factor enrolment: scan the QR code (or type the key), confirm with a code, then see the
 * recovery codes once. A session whose role requires two-factor is sent here straight after its
 * password and can use nothing else until it is done.
 */
export default function TwoFactorSetupPage() {
  const { user } = useAuth();
  const setup = useTwoFactorSetup();
  const confirm = useConfirmTwoFactor();
  const { signOut, pending: signingOut } = useSignOut();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // The link opened before sign-in (issue 24): an enrolment the role demanded goes on to it.
  const returnTo = returnPathOf(useLocation().state);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  const [leaving, setLeaving] = useState(false);
  // Where "I have saved them" leads: an enrolment the role demanded goes on to the panel.
  const mustEnrol = useRef(user?.twoFactorSetupRequired ?? false);

  // One new secret per visit (a ref survives React's development double mount).
  const started = useRef(false);
  const start = setup.mutate;
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    start();
  }, [start]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (confirm.isPending) return;
    const trimmed = code.replace(/\s+/g, '');
    if (!/^\d{6}$/.test(trimmed)) {
      setCodeError('Enter the 6-digit code from your authenticator app');
      return;
    }
    setCodeError(undefined);
    confirm.mutate(trimmed);
  };

  const done = async () => {
    setLeaving(true);
    // The session is a full one now: read the account again before the guard looks at it.
    await queryClient.invalidateQueries({ queryKey: ['auth', 'me'] });
    navigate(mustEnrol.current ? (returnTo ?? PATHS.dashboard) : ACCOUNT_PATH, { replace: true });
  };


  const subtitle = mustEnrol.current
    ? 'Your role requires a code from your phone at every sign-in. Set it up now to continue.'
    : 'Protect your account with a code from your phone at every sign-in.';

  if (confirm.isSuccess) {
    const codes = confirm.data;
    return (
      <AuthLayout title="Save your recovery codes" width={560}>
        <Stack gap="md">
          <Alert color="teal" variant="light" icon={<IconShieldCheck aria-hidden />} role="status">
            Two-factor sign-in is on.
          </Alert>
          <Text>
            If you lose your phone, each of these codes signs you in once instead of a code from the app. They are shown
            only now: print them or keep them in a password manager.
          </Text>
          <SimpleGrid cols={2} spacing="xs" component="ul" aria-label="Recovery codes" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {codes.map((c) => (
              <Box component="li" key={c}>
                <Code fz="md" block ta="center">
                  {c}
                </Code>
              </Box>
            ))}
          </SimpleGrid>
          <CopyButton value={codes.join('\n')}>
            {({ copied, copy }) => (
              <Button variant="light" onClick={copy} leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}>
                {copied ? 'Copied' : 'Copy the codes'}
              </Button>
            )}
          </CopyButton>
          <Button size="md" onClick={() => void done()} loading={leaving}>
            I have saved them
          </Button>
        </Stack>
      </AuthLayout>
    );
  }

  const alreadyOn = setup.error instanceof ApiError && setup.error.status === 409;

  return (
    <AuthLayout title="Set up two-factor sign-in" subtitle={subtitle} width={560}>
      <Stack gap="md">
        {setup.isPending && (
          <Group gap="xs" justify="center" role="status">
            <Loader size="sm" />
            <Text c="dimmed">Preparing your QR code...</Text>
          </Group>
        )}
        {setup.isError && (
          <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert">
            {errorMessage(setup.error, 'Could not start the two-factor setup. Please try again.')}{' '}
            {alreadyOn ? (
              <Anchor component={Link} to={ACCOUNT_PATH} inherit underline="always">
                Go to your account
              </Anchor>
            ) : (
              <Anchor component="button" type="button" inherit underline="always" onClick={() => start()}>
                Try again
              </Anchor>
            )}
          </Alert>
        )}
        {setup.data && (
          <form onSubmit={submit} noValidate aria-label="Set up two-factor sign-in">
            <Stack gap="md">
              <Title order={2} size="h4">
                1. Scan the QR code
              </Title>
              <Text size="sm">
                Open an authenticator app on your phone (Google Authenticator, Microsoft Authenticator, 1Password and the like),
                add an account and scan this code.
              </Text>
              <Center>
                <img src={setup.data.qrDataUrl} alt="QR code for your authenticator app" width={200} height={200} />
              </Center>
              <Text size="sm">Cannot scan it? Enter this key in the app instead:</Text>
              <Group gap="xs" wrap="nowrap">
                <Code fz="md" data-testid="two-factor-secret" style={{ flex: 1, wordBreak: 'break-all' }} aria-label="Key for manual entry">
                  {grouped(setup.data.secret)}
                </Code>
                <CopyButton value={setup.data.secret}>
                  {({ copied, copy }) => (
                    <Button size="xs" variant="light" onClick={copy} aria-label="Copy the key">
                      {copied ? 'Copied' : 'Copy'}
                    </Button>
                  )}
                </CopyButton>
              </Group>
              <Title order={2} size="h4">
                2. Enter the code it shows
              </Title>
              {confirm.isError && (
                <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert">
                  {errorMessage(confirm.error, 'Could not turn on two-factor sign-in. Please try again.')}
                </Alert>
              )}
              <TextInput
                label="6-digit code"
                autoComplete="one-time-code"
                inputMode="numeric"
                placeholder="123456"
                leftSection={<IconDeviceMobile size={16} aria-hidden />}
                value={code}
                onChange={(event) => setCode(event.currentTarget.value)}
                error={codeError}
                withAsterisk
                maxLength={7}
              />
              <Button type="submit" size="md" loading={confirm.isPending}>
                Turn on two-factor sign-in
              </Button>
            </Stack>
          </form>
        )}
        <List size="sm" c="dimmed" spacing={4}>
          <List.Item>The code changes every 30 seconds; each code works once.</List.Item>
          <List.Item>After this step you get recovery codes for when your phone is not at hand.</List.Item>
        </List>
        {mustEnrol.current ? (
          <Button variant="subtle" color="gray" onClick={signOut} loading={signingOut}>
            Sign out
          </Button>
        ) : (
          <Anchor component={Link} to={ACCOUNT_PATH} size="sm" ta="center">
            Back to your account
          </Anchor>
        )}
      </Stack>
    </AuthLayout>
  );
}
