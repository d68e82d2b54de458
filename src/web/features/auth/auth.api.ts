import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { LoginBody, RegisterBody } from '../../../contract/auth';
import { ApiError } from '../../lib/api-client';
import { PATHS } from '../../lib/paths';
import { clearSession } from '../../lib/session';

// The sign-in route loads no zod (its size budget, vite-budget.ts): the typed client, which parses
// every answer with the contract's schemas, is a chunk of its own, fetched by the first call (or
// by prefetchAuthClient) — not while the sign-in page loads and hydrates (Lighthouse, issue 23).
let loading: Promise<typeof import('./auth.client')> | undefined;
/** Starts fetching the typed client (the sign-in form does once used); the calls await it. */
export const prefetchAuthClient = () => (loading ??= import('./auth.client'));
const calls = async () => (await prefetchAuthClient()).auth;

/** The signed-in account's query key, `auth.me.key()` of the typed client; the token follows it. */
export const ME_KEY = ['auth', 'me'] as const;

export const meQuery = (token: string) =>
  queryOptions({
    queryKey: [...ME_KEY, token],
    queryFn: async ({ signal }) => (await (await calls()).me(undefined, { signal })).data,
    staleTime: 60_000,
  });

export function useLogin() {
  return useMutation({
    mutationFn: async (body: LoginBody) => (await (await calls()).login({ body })).data,
  });
}

export function useRegister() {
  return useMutation({
    mutationFn: async (body: RegisterBody) => (await calls()).register({ body }),
  });
}

export function useForgotPassword() {
  return useMutation({
    mutationFn: async (email: string) => (await calls()).forgotPassword({ body: { email } }),
  });
}

/** A refused sign-in whose password was right: the server wants the second factor now. */
export function needsTwoFactorCode(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401 &&
    (error.body as { twoFactorRequired?: unknown } | null)?.twoFactorRequired === true;
}

/** Used by the reset page and by the invite page (an invite link sets the first password). */
export function useResetPassword() {
  return useMutation({
    mutationFn: async (body: { token: string; newPassword: string }) => (await calls()).resetPassword({ body }),
  });
}

/** Follows a registration's confirmation link (`/confirm-email?token=`). */
export function useConfirmEmail() {
  return useMutation({
    mutationFn: async (token: string) => (await calls()).confirmEmail({ body: { token } }),
  });
}

export function useLogout() {
  return useMutation({
    mutationFn: async () => (await calls()).logout(),
  });
}

/** Sign out (the header, the two-factor setup screen): however the call ends, forget the session and the cache, then go to sign-in. */
export function useSignOut() {
  const logout = useLogout();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const signOut = () =>
    logout.mutate(undefined, {
      onSettled: () => {
        clearSession();
        queryClient.clear();
        navigate(PATHS.signIn, { replace: true });
      },
    });
  return { signOut, pending: logout.isPending };
}

