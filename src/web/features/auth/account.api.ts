import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { accountApi, type ChangeEmailBody, type ChangePasswordBody } from '../../../contract/account';
import { client } from '../../lib/api-client';
import { ME_KEY } from './auth.api';

const account = client(accountApi);

export const twoFactorStatusQuery = () =>
  queryOptions({
    queryKey: account.twoFactorStatus.key(),
    queryFn: async ({ signal }) => (await account.twoFactorStatus(undefined, { signal })).data,
  });

export const accountSessionsQuery = () =>
  queryOptions({
    queryKey: account.sessions.key(),
    queryFn: async ({ signal }) => (await account.sessions(undefined, { signal })).data,
  });

/** Two-factor on or off changes the signed-in account too (`twoFactorEnabled`, the enrol stage). */
function useInvalidateAccount() {
  const queryClient = useQueryClient();
  return () => Promise.all([
    queryClient.invalidateQueries({ queryKey: [accountApi.twoFactorStatus.group] }),
    queryClient.invalidateQueries({ queryKey: ME_KEY }),
  ]);
}

export function useTwoFactorSetup() {
  return useMutation({
    mutationFn: async () => (await account.setUpTwoFactor()).data,
  });
}

/** Confirms the new secret with a code; answers the recovery codes (shown once). */
export function useConfirmTwoFactor() {
  const invalidate = useInvalidateAccount();
  return useMutation({
    mutationFn: async (code: string) => (await account.confirmTwoFactor({ body: { code } })).data.recoveryCodes,
    onSuccess: invalidate,
  });
}

export function useTurnOffTwoFactor() {
  const invalidate = useInvalidateAccount();
  return useMutation({
    mutationFn: (code: string) => account.turnOffTwoFactor({ body: { code } }),
    onSuccess: invalidate,
  });
}

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => account.endSession({ params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: account.sessions.key() }),
  });
}

/** The account's own sign-in email; the password is asked again. The signed-in account changes with it. */
export function useChangeEmail() {
  const invalidate = useInvalidateAccount();
  return useMutation({
    mutationFn: (body: ChangeEmailBody) => account.changeEmail({ body }),
    onSuccess: invalidate,
  });
}

/** The account's own password (issue 24); its other sessions are signed out, so the list changes too. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ChangePasswordBody) => account.changePassword({ body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: account.sessions.key() }),
  });
}
