import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { incomeSettingsApi, type SettingsBody, type SettingsVersion } from '../../../contract/income';
import { client } from '../../lib/api-client';

const settings = client(incomeSettingsApi);

export type { SettingsVersion };

/** The settings in force today, the next scheduled version and the history (newest first). */
export const incomeSettingsQuery = () =>
  queryOptions({
    queryKey: settings.get.key(),
    queryFn: async ({ signal }) => (await settings.get(undefined, { signal })).data,
  });

export function useSaveIncomeSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: SettingsBody; idempotencyKey: string }) => settings.save({ body }, { idempotencyKey }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [incomeSettingsApi.get.group] }),
  });
}
