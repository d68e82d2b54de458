import { Title } from '@mantine/core';

/** Groundwork placeholder (issue 16). */
export default function RunsPage() {
  return <Title order={2}>Income Runs</Title>;
}
