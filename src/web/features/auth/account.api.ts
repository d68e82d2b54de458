import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { AccountSession, TwoFactorSetup, TwoFactorStatus } from '../../../contract/account';
import { apiRequest } from '../../lib/api-client';

interface OkResponse {
  success: true;
  message: string;
}

export const twoFactorStatusQuery = () =>
  queryOptions({
    queryKey: ['account', 'two-factor'],
    queryFn: ({ signal }) =>
      apiRequest<{ success: true; data: TwoFactorStatus }>('/account/two-factor', { signal }).then((r) => r.data),
  });

export const accountSessionsQuery = () =>
  queryOptions({
    queryKey: ['account', 'sessions'],
    queryFn: ({ signal }) =>
      apiRequest<{ success: true; data: AccountSession[] }>('/account/sessions', { signal }).then((r) => r.data),
  });

/** Two-factor on or off changes the signed-in account too (`twoFactorEnabled`, the enrol stage). */
function useInvalidateAccount() {
  const queryClient = useQueryClient();
  return () => Promise.all([
    queryClient.invalidateQueries({ queryKey: ['account'] }),
    queryClient.invalidateQueries({ queryKey: ['auth', 'me'] }),
  ]);
}

export function useTwoFactorSetup() {
  return useMutation({
    mutationFn: () =>
      apiRequest<{ success: true; data: TwoFactorSetup }>('/account/two-factor/setup', { method: 'POST' }).then((r) => r.data),
  });
}

/** Confirms the new secret with a code; answers the recovery codes (shown once). */
export function useConfirmTwoFactor() {
  const invalidate = useInvalidateAccount();
  return useMutation({
    mutationFn: (code: string) =>
      apiRequest<{ success: true; message: string; data: { recoveryCodes: string[] } }>('/account/two-factor/confirm', {
        method: 'POST',
        body: { code },
      }).then((r) => r.data.recoveryCodes),
    onSuccess: invalidate,
  });
}

export function useTurnOffTwoFactor() {
  const invalidate = useInvalidateAccount();
  return useMutation({
    mutationFn: (code: string) => apiRequest<OkResponse>('/account/two-factor', { method: 'DELETE', body: { code } }),
    onSuccess: invalidate,
  });
}

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest<OkResponse>(`/account/sessions/${id}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['account', 'sessions'] }),
  });
}

/** The account's own sign-in email; the password is asked again. The signed-in account changes with it. */
export function useChangeEmail() {
  const invalidate = useInvalidateAccount();
  return useMutation({
    mutationFn: (body: { email: string; password: string }) => apiRequest<OkResponse>('/account/email', { method: 'PUT', body }),
    onSuccess: invalidate,
  });
}
