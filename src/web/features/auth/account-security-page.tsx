import { useState, type FormEvent } from 'react';
import { Badge, Button, Group, Loader, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconDeviceDesktop, IconShieldCheck, IconShieldOff } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import type { AccountSession } from '../../../contract/account';
import { PATHS } from '../../lib/paths';
import { DataTable, type Column } from '../../components/data-table';
import { ErrorAlert } from '../../components/error-alert';
import { FormModal } from '../../components/form-modal';
import { PageTitle } from '../../components/page-title';
import { SuccessBanner, useSuccessBanner } from '../../components/success-banner';
import { errorMessage } from '../../lib/api-client';
import { clearSession } from '../../lib/session';
import { ChangeEmailSection } from './change-email-section';
import { ChangePasswordSection } from './change-password-section';
import { accountSessionsQuery, twoFactorStatusQuery, useEndSession, useTurnOffTwoFactor } from './account.api';
import { formatDateTime } from '../../lib/format';

/** "Chrome on Windows" from a user agent; the full text stays in the cell's title. */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const browser =
    /Edg\//.test(userAgent) ? 'Edge'
    : /OPR\//.test(userAgent) ? 'Opera'
    : /Firefox\//.test(userAgent) ? 'Firefox'
    : /Chrom(e|ium)\//.test(userAgent) ? 'Chrome'
    : /Safari\//.test(userAgent) ? 'Safari'
    : null;
  const system =
    /Android/.test(userAgent) ? 'Android'
    : /iPhone|iPad/.test(userAgent) ? 'iOS'
    : /Windows/.test(userAgent) ? 'Windows'
    : /Mac OS X|Macintosh/.test(userAgent) ? 'macOS'
    : /Linux/.test(userAgent) ? 'Linux'
    : null;
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? userAgent.slice(0, 60);
}

const when = (iso: string | null) => (iso ? formatDateTime(iso) : 'Never');

function TurnOffDialog({ onClose, onDone }: { onClose: () => void; onDone: (message: string) => void }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const turnOff = useTurnOffTwoFactor();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = code.trim();
    if (!trimmed) {
      setError('Enter the 6-digit code from your authenticator app');
      return;
    }
    setError(undefined);
    turnOff.mutate(trimmed, {
      onSuccess: (answer) => {
        onClose();
        onDone(answer.message);
      },
    });
  };

  return (
    <FormModal
      title="Turn off two-factor sign-in"
      error={turnOff.isError ? errorMessage(turnOff.error, 'Could not turn off two-factor sign-in. Please try again.') : null}
      busy={turnOff.isPending}
      submitLabel="Turn off"
      submitColor="red"
      onClose={onClose}
      onSubmit={submit}
    >
      <Text size="sm">Confirm with a code from your authenticator app (or a recovery code). Your password alone will then sign you in.</Text>
      <TextInput
        label="Two-factor code"
        autoComplete="one-time-code"
        value={code}
        onChange={(event) => setCode(event.currentTarget.value)}
        error={error}
        withAsterisk
        data-autofocus
      />
    </FormModal>
  );
}

/** A list or status that did not load. */
const LoadFailure = ({ error }: { error: unknown }) => <ErrorAlert error={error} prefix="Failed to load data: " withIcon />;

function TwoFactorSection({ onMessage }: { onMessage: (message: string) => void }) {
  const status = useQuery(twoFactorStatusQuery());
  const [turningOff, setTurningOff] = useState(false);

  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="two-factor-heading">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4" id="two-factor-heading">
            Two-factor sign-in
          </Title>
          {status.data && (
            <Badge tt="none" variant="light" color={status.data.enabled ? 'teal' : 'gray'}>
              {status.data.enabled ? 'On' : 'Off'}
            </Badge>
          )}
        </Group>
        {status.isPending && (
          <Group gap="xs" role="status">
            <Loader size="xs" />
            <Text size="sm" c="dimmed">
              Loading...
            </Text>
          </Group>
        )}
        <LoadFailure error={status.error} />
        {status.data && (
          <>
            <Text size="sm">
              {status.data.enabled
                ? `Every sign-in asks for a code from your authenticator app. Recovery codes left: ${status.data.recoveryCodesLeft}.`
                : 'Your password alone signs you in. Add a code from your phone so that a stolen password is not enough.'}
            </Text>
            {status.data.required && (
              <Text size="sm" c="dimmed">
                Your role requires two-factor sign-in, so it cannot be turned off.
              </Text>
            )}
            <Group>
              {!status.data.enabled && (
                <Button component={Link} to={PATHS.twoFactorSetup} leftSection={<IconShieldCheck size={16} aria-hidden />}>
                  Set up two-factor sign-in
                </Button>
              )}
              {status.data.enabled && !status.data.required && (
                <Button variant="light" color="red" leftSection={<IconShieldOff size={16} aria-hidden />} onClick={() => setTurningOff(true)}>
                  Turn off
                </Button>
              )}
            </Group>
          </>
        )}
      </Stack>
      {turningOff && <TurnOffDialog onClose={() => setTurningOff(false)} onDone={onMessage} />}
    </Paper>
  );
}

function SessionsSection({ onMessage }: { onMessage: (message: string) => void }) {
  const sessions = useQuery(accountSessionsQuery());
  const end = useEndSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const signOut = (session: AccountSession) =>
    end.mutate(session.id, {
      onSuccess: (answer) => {
        if (!session.current) {
          onMessage(answer.message);
          return;
        }
        clearSession();
        queryClient.clear();
        navigate(PATHS.signIn, { replace: true });
      },
    });

  const columns: Column<AccountSession>[] = [
    {
      header: 'Device',
      cell: (s) => (
        <Group gap="xs" wrap="nowrap">
          <IconDeviceDesktop size={16} aria-hidden />
          <Text size="sm" title={s.userAgent ?? undefined}>
            {describeDevice(s.userAgent)}
          </Text>
          {s.current && (
            <Badge tt="none" variant="light" color="indigo">
              This device
            </Badge>
          )}
        </Group>
      ),
    },
    { header: 'Address', cell: (s) => <Text size="sm">{s.ip ?? 'Unknown'}</Text> },
    { header: 'Signed in', cell: (s) => <Text size="sm">{when(s.createdAt)}</Text> },
    { header: 'Last used', cell: (s) => <Text size="sm">{when(s.lastUsedAt)}</Text> },
    {
      header: 'Actions',
      width: 120,
      cell: (s) => (
        <Button
          size="xs"
          variant="light"
          color="red"
          onClick={() => signOut(s)}
          loading={end.isPending && end.variables === s.id}
          aria-label={s.current ? 'Sign out this device' : `Sign out ${describeDevice(s.userAgent)} at ${s.ip ?? 'an unknown address'}`}
        >
          Sign out
        </Button>
      ),
    },
  ];

  return (
    <Stack gap="sm" component="section" aria-labelledby="sessions-heading">
      <Title order={2} size="h4" id="sessions-heading">
        Your sessions
      </Title>
      <Text size="sm" c="dimmed">
        Where your account is signed in. Sign out any session you do not recognise, then change your password.
      </Text>
      <LoadFailure error={sessions.error} />
      <ErrorAlert error={end.error} fallback="Could not sign out that session. Please try again." onClose={() => end.reset()} />
      <DataTable
        caption="Your sessions"
        columns={columns}
        rows={sessions.isError ? [] : sessions.data}
        rowKey={(s) => s.id}
        loading={sessions.isPending}
        empty={<Text c="dimmed">No active sessions</Text>}
      />
    </Stack>
  );
}

/** The signed-in account's own security: two-factor sign-in and where it is signed in. */
export default function AccountSecurityPage() {
  const [success, showSuccess] = useSuccessBanner();
  return (
    <Stack gap="lg">
      <PageTitle title="Your account" subtitle="Two-factor sign-in, your sign-in email, your password and your active sessions" />
      <SuccessBanner message={success} />
      <TwoFactorSection onMessage={showSuccess} />
      <ChangeEmailSection onMessage={showSuccess} />
      <ChangePasswordSection onMessage={showSuccess} />
      <SessionsSection onMessage={showSuccess} />
    </Stack>
  );
}
