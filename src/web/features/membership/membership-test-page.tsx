import { useState } from 'react';
import { Button, Code, Group, NumberInput, Paper, Stack, Text, Title } from '@mantine/core';
import { membershipApi } from '../../../contract/membership';
import { walletApi } from '../../../contract/wallet';
import { ApiError, client } from '../../lib/api-client';
import { fetchAmountHistory, historyInput, membersInput } from './membership.api';

const membership = client(membershipApi);

interface Result {
  call: string;
  status: 'ok' | 'error';
  body: string;
}

/** How the page names a call: its method and address, e.g. "GET /api/users/membership?page=1&limit=25". */
function callName(endpoint: { method: string; path: string }, query: Record<string, string | number>): string {
  const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  return `${endpoint.method} /api${endpoint.path}?${search}`;
}

/** Membership API Test (/test/membership-test): calls the two endpoints and shows the raw answers. */
export default function MembershipTestPage() {
  const [userId, setUserId] = useState<number | string>('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result | null>(null);

  async function run(call: string, send: () => Promise<unknown>) {
    setBusy(true);
    try {
      const body = await send();
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
        <Button
          onClick={() => {
            const input = membersInput(null, 1);
            void run(callName(membershipApi.list, input.query), () => membership.list(input));
          }}
          loading={busy}
        >
          Test Members API
        </Button>
        <NumberInput label="User ID" value={userId} onChange={setUserId} min={1} allowDecimal={false} w={180} />
        <Button
          onClick={() => {
            const input = historyInput(Number(userId));
            // Read as the amount history reads it: the rows under `history` or under `transactions` (spec §7).
            void run(callName(walletApi.history, input.query), () => fetchAmountHistory(input.query.userId));
          }}
          disabled={!userId}
          loading={busy}
          variant="light"
        >
          Test Amount History API
        </Button>
      </Group>
      {result && (
        <Paper withBorder p="md" radius="md">
          <Text size="sm" fw={600} c={result.status === 'ok' ? 'teal' : 'red'} mb="xs">
            {`${result.call} — ${result.status === 'ok' ? 'Success' : 'Failed'}`}
          </Text>
          <Code block aria-label="Raw response">
            {result.body}
          </Code>
        </Paper>
      )}
    </Stack>
  );
}
