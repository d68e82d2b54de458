import { Title } from '@mantine/core';

/** Groundwork placeholder (issue 16). */
export default function PlansPage() {
  return <Title order={2}>Membership Plans</Title>;
}
