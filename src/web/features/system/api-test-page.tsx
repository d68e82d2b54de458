import { useCallback, useEffect, useState } from 'react';
import { Badge, Button, Card, Code, Group, Stack, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { systemApi } from '../../../contract/system';
import { client, errorMessage } from '../../lib/api-client';

const system = client(systemApi);

type Status = 'Ready' | 'Connecting...' | 'Connected' | 'Failed';
const COLORS: Record<Status, string> = { Ready: 'gray', 'Connecting...': 'blue', Connected: 'teal', Failed: 'red' };

/** Spec §2 API connection test panel: calls GET / on the API root (spec §7 Connection test). */
export default function ApiTestPage() {
  const [status, setStatus] = useState<Status>('Ready');
  const [detail, setDetail] = useState<string>('');

  const connect = useCallback(async () => {
    setStatus('Connecting...');
    setDetail('');
    try {
      const body = await system.root();
      setStatus('Connected');
      setDetail(JSON.stringify(body, null, 2));
    } catch (err) {
      setStatus('Failed');
      setDetail(errorMessage(err, 'Could not reach the server'));
    }
  }, []);

  useEffect(() => {
    void connect();
  }, [connect]);

  return (
    <Card withBorder padding="lg" maw={560}>
      <Stack>
        <Title order={1} size="h3">
          API Connection Test
        </Title>
        <Group>
          <Text>Status:</Text>
          <Badge color={COLORS[status]} size="lg" variant="light" role="status">
            {status}
          </Badge>
        </Group>
        {detail && <Code block>{detail}</Code>}
        <Button
          leftSection={<IconRefresh size={16} aria-hidden />}
          onClick={connect}
          loading={status === 'Connecting...'}
          w="fit-content"
        >
          Retry Connection
        </Button>
      </Stack>
    </Card>
  );
}
