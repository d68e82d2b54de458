import { useState } from 'react';
import { Button, Code, Group, NumberInput, Paper, Stack, Text, Title } from '@mantine/core';
import { ApiError, apiRequest } from '../../lib/api-client';
import { historyPath, membersPath } from './membership.api';

interface Result {
  call: string;
  status: 'ok' | 'error';
  body: string;
}

/** Membership API Test (/test/membership-test): calls the two endpoints and shows the raw answers. */
export default function MembershipTestPage() {
  const [userId, setUserId] = useState<number | string>('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result | null>(null);

  async function run(call: string) {
    setBusy(true);
    try {
      const body = await apiRequest<unknown>(call);
      setResult({ call, status: 'ok', body: JSON.stringify(body, null, 2) });
    } catch (err) {
      const message = err instanceof ApiError ? `${err.status}: ${err.message}` : String(err);
      setResult({ call, status: 'error', body: message });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        Membership API Test
      </Title>
      <Group align="flex-end">
        <Button onClick={() => run(membersPath(null, 1))} loading={busy}>
          Test Members API
        </Button>
        <NumberInput label="User ID" value={userId} onChange={setUserId} min={1} allowDecimal={false} w={180} />
        <Button onClick={() => run(historyPath(Number(userId)))} disabled={!userId} loading={busy} variant="light">
          Test Amount History API
        </Button>
      </Group>
      {result && (
        <Paper withBorder p="md" radius="md">
          <Text size="sm" fw={600} c={result.status === 'ok' ? 'teal' : 'red'} mb="xs">
            {`GET /api${result.call} — ${result.status === 'ok' ? 'Success' : 'Failed'}`}
          </Text>
          <Code block aria-label="Raw response">
            {result.body}
          </Code>
        </Paper>
      )}
    </Stack>
  );
}
