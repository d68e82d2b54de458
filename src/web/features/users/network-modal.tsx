import { Accordion, Badge, Group, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { DataTable } from '../../components/data-table';
import { formatCount } from '../../lib/format';
import { DOWNLINE_COLUMNS, MemberModal, type MemberRef } from './downline-modal';
import { downlineTreeQuery } from '../network/network.api';
import { ErrorAlert } from '../../components/error-alert';

/** The whole network under a member, level by level: counts and the first members of each level. */
export function NetworkModal({ member, onClose }: { member: MemberRef | null; onClose: () => void }) {
  return <MemberModal member={member} onClose={onClose} heading="Network of" body={(userId) => <NetworkBody userId={userId} />} />;
}

function NetworkBody({ userId }: { userId: number }) {
  const tree = useQuery(downlineTreeQuery(userId));
  if (tree.isPending) {
    return (
      <Group justify="center" py="xl">
        <Loader size="sm" aria-label="Loading network" />
      </Group>
    );
  }
  if (tree.isError) {
    return (
      <ErrorAlert error="Failed to fetch downline data. Please try again." />
    );
  }
  const { levels, totalMember } = tree.data;
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        Everyone in this member's network, up to 10 levels below them. Total members: {formatCount(totalMember)}
      </Text>
      {levels.length === 0 ? (
        <Text c="dimmed" ta="center" py="lg">
          No direct referrals found for this user.
        </Text>
      ) : (
        <Accordion variant="separated" defaultValue="1">
          {levels.map((level) => (
            <Accordion.Item key={level.depth} value={String(level.depth)}>
              <Accordion.Control>
                <Group justify="space-between" pr="sm">
                  <Text fw={500}>{`Level ${level.depth} below`}</Text>
                  <Badge variant="light">{`${formatCount(level.count)} ${level.count === 1 ? 'member' : 'members'}`}</Badge>
                </Group>
              </Accordion.Control>
              <Accordion.Panel>
                <DataTable
                  caption={`Level ${level.depth} below`}
                  columns={DOWNLINE_COLUMNS}
                  rows={level.members}
                  rowKey={(m) => m.userId}
                  empty={null}
                />
                {level.count > level.members.length && (
                  <Text size="xs" c="dimmed" mt="xs">
                    {`Showing the first ${level.members.length} of ${formatCount(level.count)} members on this level.`}
                  </Text>
                )}
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      )}
    </Stack>
  );
}
