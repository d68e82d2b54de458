import { queryOptions, useMutation } from '@tanstack/react-query';
import type { LoginBody, RegisterBody, SessionUser } from '../../../contract/auth';
import { ApiError, apiRequest } from '../../lib/api-client';

interface LoginResponse {
  success: true;
  message: string;
  data: { token: string; user: SessionUser };
}

interface RegisterResponse {
  success: true;
  message: string;
  token: string;
  user: SessionUser;
}

interface OkResponse {
  success: true;
  message: string;
}

export const meQuery = (token: string) =>
  queryOptions({
    queryKey: ['auth', 'me', token],
    queryFn: ({ signal }) =>
      apiRequest<{ success: true; data: SessionUser }>('/users/me', { signal }).then((r) => r.data),
    staleTime: 60_000,
  });

export function useLogin() {
  return useMutation({
    mutationFn: (body: LoginBody) =>
      apiRequest<LoginResponse>('/Adminlogin', { method: 'POST', body, auth: false }).then((r) => r.data),
  });
}

export function useRegister() {
  return useMutation({
    mutationFn: (body: RegisterBody) =>
      apiRequest<RegisterResponse>('/register', { method: 'POST', body, auth: false }),
  });
}

export function useForgotPassword() {
  return useMutation({
    mutationFn: (email: string) =>
      apiRequest<OkResponse>('/users/forgot-password', { method: 'POST', body: { email }, auth: false }),
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
    mutationFn: (body: { token: string; newPassword: string }) =>
      apiRequest<OkResponse>('/users/reset-password', { method: 'POST', body, auth: false }),
  });
}

export function useLogout() {
  return useMutation({
    mutationFn: () => apiRequest<OkResponse>('/users/logout', { method: 'POST' }),
  });
}
