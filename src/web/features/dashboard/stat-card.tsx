import { Badge, Card, Group, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import { formatCount } from '../../lib/format';

interface StatCardProps {
  label: string;
  /** null while loading. */
  value: number | null;
  /** Fixed text of spec §2, not computed. */
  change: string;
  icon: Icon;
  color: string;
  sample: boolean;
}

export function StatCard({ label, value, change, icon: IconComponent, color, sample }: StatCardProps) {
  const rising = change.startsWith('+');
  return (
    <Card padding="lg" component="section" aria-label={label}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={6}>
          <Text size="sm" c="dimmed" fw={600}>
            {label}
          </Text>
          {value === null ? (
            <Skeleton height={34} width={110} radius="sm" aria-label={`Loading ${label}`} />
          ) : (
            <Text fz={30} fw={700} lh={1.1}>
              {formatCount(value)}
            </Text>
          )}
        </Stack>
        <ThemeIcon size={48} radius="md" variant="light" color={color} aria-hidden>
          <IconComponent size={26} stroke={1.6} />
        </ThemeIcon>
      </Group>
      <Group gap="xs" mt="md">
        <Badge variant="light" color={rising ? 'teal' : 'red'} radius="sm">
          {change}
        </Badge>
        {sample && (
          <Badge variant="outline" color="orange" radius="sm">
            Sample data
          </Badge>
        )}
      </Group>
    </Card>
  );
}
