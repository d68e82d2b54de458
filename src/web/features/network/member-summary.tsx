import { Avatar, Badge, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import type { User } from '../../../contract/users';
import { formatDate, initials } from '../../lib/format';

/** Spec §3 referrer display rule: a null referrer name means 'Direct'. */
const referrer = (m: User) => m.referrerName ?? (m.referredBy ? `User #${m.referredBy}` : 'Direct');

export function MemberSummary({ member: m }: { member: User }) {
  const facts: [string, string][] = [
    ['Email', m.email],
    ['Phone', m.phone],
    ['Referred By', referrer(m)],
    ['Referral Code', m.referralCode],
    ['Rank', m.rank ?? 'No Rank'],
    ['State', m.state || 'N/A'],
    ['Date of Birth', m.dob ? formatDate(m.dob) : 'N/A'],
    ['Joined', formatDate(m.createdAt)],
  ];
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label="Profile">
      <Group align="flex-start" gap="lg" wrap="nowrap">
        <Avatar size="lg" radius="xl" color="indigo" src={m.image} alt="" aria-hidden>
          {initials(m.fullName)}
        </Avatar>
        <Stack gap="sm" style={{ flex: 1 }}>
          <Group gap="xs">
            <Badge color={m.status ? 'teal' : 'gray'} variant="light">
              {m.status ? 'Active' : 'Inactive'}
            </Badge>
            <Badge variant="outline" color="gray">{`Level ${m.level}`}</Badge>
            <Badge variant="outline" color="gray">{`ID ${m.userId}`}</Badge>
          </Group>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm" component="dl" m={0}>
            {facts.map(([label, value]) => (
              <div key={label}>
                <Text component="dt" size="xs" c="dimmed">
                  {label}
                </Text>
                <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
                  {value}
                </Text>
              </div>
            ))}
          </SimpleGrid>
        </Stack>
      </Group>
    </Paper>
  );
}
