import { useId, useState } from 'react';
import { ActionIcon, Alert, Anchor, Badge, Box, Button, Group, Loader, Text } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { NetworkNode } from '../../../contract/network';
import { memberPath } from '../../lib/paths';
import { formatCount } from '../../lib/format';
import { childrenQuery } from './network.api';
import classes from './genealogy-tree.module.css';

export interface TreeRoot {
  userId: number;
  fullName: string;
  level: number;
  status: boolean;
}

const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/**
 * A member's downline as a tree that is opened one node at a time: each node fetches a page of its
 * direct referrals when expanded, and more on "Load more". Nothing below a closed node is loaded,
 * so a network of 100,000 members costs what the operator actually opens.
 */
export function GenealogyTree({ root }: { root: TreeRoot }) {
  const listId = useId();
  const [open, setOpen] = useState(true);
  return (
    <Box component="ul" className={classes.tree} aria-label={`Genealogy of ${root.fullName}`}>
      <Box component="li" className={classes.item}>
        <Group gap="xs" wrap="nowrap" className={classes.row}>
          <ToggleButton name={root.fullName} open={open} controls={listId} onToggle={() => setOpen((o) => !o)} />
          <Text fw={600}>{root.fullName}</Text>
          <NodeFacts userId={root.userId} level={root.level} status={root.status} deleted={false} />
        </Group>
        {open && <ChildList userId={root.userId} id={listId} />}
      </Box>
    </Box>
  );
}

function ToggleButton({ name, open, controls, onToggle }: { name: string; open: boolean; controls: string; onToggle: () => void }) {
  return (
    <ActionIcon
      variant="subtle"
      color="gray"
      size="sm"
      aria-expanded={open}
      aria-controls={open ? controls : undefined}
      aria-label={`${open ? 'Collapse' : 'Expand'} ${name}`}
      onClick={onToggle}
    >
      <IconChevronRight size={16} aria-hidden className={classes.chevron} data-open={open || undefined} />
    </ActionIcon>
  );
}

function NodeFacts({ userId, level, status, deleted }: { userId: number; level: number; status: boolean; deleted: boolean }) {
  return (
    <>
      <Text size="xs" c="dimmed">{`ID ${userId}`}</Text>
      <Badge size="sm" variant="outline" color="gray">{`Level ${level}`}</Badge>
      {deleted ? (
        <Badge size="sm" color="red" variant="light">
          Deleted
        </Badge>
      ) : (
        <Badge size="sm" color={status ? 'teal' : 'gray'} variant="light">
          {status ? 'Active' : 'Inactive'}
        </Badge>
      )}
    </>
  );
}

function TreeNode({ node }: { node: NetworkNode }) {
  const listId = useId();
  const [open, setOpen] = useState(false);
  const leaf = node.directReferrals === 0;
  return (
    <Box component="li" className={classes.item}>
      <Group gap="xs" wrap="nowrap" className={classes.row}>
        {leaf ? (
          <Box className={classes.spacer} aria-hidden />
        ) : (
          <ToggleButton name={node.fullName} open={open} controls={listId} onToggle={() => setOpen((o) => !o)} />
        )}
        {node.deleted ? (
          <Text size="sm" td="line-through" c="dimmed">
            {node.fullName}
          </Text>
        ) : (
          <Anchor component={Link} to={memberPath(node.userId)} size="sm" fw={500}>
            {node.fullName}
          </Anchor>
        )}
        <NodeFacts userId={node.userId} level={node.level} status={node.status} deleted={node.deleted} />
        <Text size="xs" c="dimmed">
          {plural(node.directReferrals, 'direct referral', 'direct referrals')}
        </Text>
      </Group>
      {open && <ChildList userId={node.userId} id={listId} />}
    </Box>
  );
}

function ChildList({ userId, id }: { userId: number; id: string }) {
  const children = useInfiniteQuery(childrenQuery(userId));
  if (children.isPending) {
    return (
      <Group gap="xs" py={6} pl="xl" id={id}>
        <Loader size="xs" aria-label="Loading referrals" />
      </Group>
    );
  }
  if (children.isError && !children.data) {
    return (
      <Alert color="red" variant="light" role="alert" id={id} py="xs" ml="xl">
        <Group gap="sm">
          <Text size="sm">Failed to fetch downline data. Please try again.</Text>
          <Button size="compact-xs" variant="light" color="red" onClick={() => children.refetch()}>
            Retry
          </Button>
        </Group>
      </Alert>
    );
  }
  const nodes = children.data.pages.flatMap((p) => p.data);
  const total = children.data.pages[0]?.total ?? 0;
  if (total === 0) {
    return (
      <Text size="sm" c="dimmed" py={6} pl="xl" id={id}>
        No direct referrals found for this user.
      </Text>
    );
  }
  return (
    <Box component="ul" className={classes.children} id={id}>
      {nodes.map((n) => (
        <TreeNode key={n.userId} node={n} />
      ))}
      {children.hasNextPage && (
        <Box component="li" className={classes.item}>
          <Group gap="sm" className={classes.row}>
            <Box className={classes.spacer} aria-hidden />
            <Button
              size="compact-sm"
              variant="light"
              onClick={() => children.fetchNextPage()}
              loading={children.isFetchingNextPage}
            >
              Load more
            </Button>
            <Text size="xs" c="dimmed">{`Showing ${formatCount(nodes.length)} of ${formatCount(total)}`}</Text>
          </Group>
        </Box>
      )}
    </Box>
  );
}
