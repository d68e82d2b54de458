import { z } from 'zod';
import { newPassword, TWO_FACTOR_CODE } from './auth.ts';
import { messageResponse } from './common.ts';
import { endpoints } from './endpoint.ts';

/** The signed-in account's own security: two-factor sign-in and its sessions (any account, no permission). */

export const twoFactorStatusResponse = z.object({
  success: z.literal(true),
  data: z.object({
    enabled: z.boolean(),
    /** The account's role requires two-factor: it cannot be turned off. */
    required: z.boolean(),
    recoveryCodesLeft: z.number().int(),
  }),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusResponse>['data'];

/** A new secret, not in force until confirmed with a code from it. Shown this once. */
export const twoFactorSetupResponse = z.object({
  success: z.literal(true),
  data: z.object({
    secret: z.string(),
    otpauthUrl: z.string(),
    /** A PNG of the otpauth URL as a data: URL, for the authenticator app to scan. */
    qrDataUrl: z.string(),
  }),
});
export type TwoFactorSetup = z.infer<typeof twoFactorSetupResponse>['data'];

export const twoFactorCodeBody = z.object({
  code: z.string().trim().regex(TWO_FACTOR_CODE, 'Enter the 6-digit code from your authenticator app'),
});
export const twoFactorConfirmBody = z.object({
  code: z.string().trim().regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app'),
});

/** Ten one-time codes, each signs in once instead of an authenticator code. Shown this once. */
export const twoFactorConfirmResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ recoveryCodes: z.array(z.string()) }),
});

export const accountSession = z.object({
  id: z.number().int(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /** The session this request was made with. */
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof accountSession>;

export const accountSessionsResponse = z.object({ success: z.literal(true), data: z.array(accountSession) });

export const sessionIdParams = z.object({
  id: z.coerce.number({ error: 'Session id must be a number' }).int('Session id must be a whole number').positive('Session id must be a whole number')
    .max(Number.MAX_SAFE_INTEGER, 'Session id is too large'),
});

/** The account changes its own sign-in email; its password proves it is the owner, not a held session. */
export const changeEmailBody = z.object({
  email: z.string().trim().toLowerCase().email('Enter a valid email address').max(254),
  password: z.string().min(1, 'Enter your password').max(256),
});
export type ChangeEmailBody = z.infer<typeof changeEmailBody>;

/**
 * The account changes its own password (issue 24): the current one proves it is the owner; the new
 * one meets the password policy. Every other session of the account is signed out.
 */
export const changePasswordBody = z.object({
  currentPassword: z.string().min(1, 'Enter your current password').max(256),
  newPassword,
});
export type ChangePasswordBody = z.infer<typeof changePasswordBody>;

// A session that must enrol may use exactly the three two-factor set-up calls (and /users/me, /users/logout).
export const accountApi = endpoints('account', {
  twoFactorStatus: {
    method: 'GET', path: '/account/two-factor', access: 'session', duringEnrolment: true, responses: { 200: twoFactorStatusResponse },
  },
  setUpTwoFactor: {
    method: 'POST', path: '/account/two-factor/setup', access: 'session', duringEnrolment: true, responses: { 200: twoFactorSetupResponse },
  },
  confirmTwoFactor: {
    method: 'POST', path: '/account/two-factor/confirm', access: 'session', duringEnrolment: true, body: twoFactorConfirmBody,
    responses: { 200: twoFactorConfirmResponse },
  },
  turnOffTwoFactor: {
    method: 'DELETE', path: '/account/two-factor', access: 'session', body: twoFactorCodeBody, responses: { 200: messageResponse },
  },
  changeEmail: { method: 'PUT', path: '/account/email', access: 'session', body: changeEmailBody, responses: { 200: messageResponse } },
  changePassword: {
    method: 'PUT', path: '/account/password', access: 'session', body: changePasswordBody, responses: { 200: messageResponse },
  },
  sessions: { method: 'GET', path: '/account/sessions', access: 'session', responses: { 200: accountSessionsResponse } },
  endSession: {
    method: 'DELETE', path: '/account/sessions/:id', access: 'session', params: sessionIdParams, responses: { 200: messageResponse },
  },
});
