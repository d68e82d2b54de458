import { Title } from '@mantine/core';

/** Groundwork placeholder (issue 16). */
export default function IncomeSettingsPage() {
  return <Title order={2}>Income Settings</Title>;
}
