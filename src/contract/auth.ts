import { z } from 'zod';
import { errorResponse, messageResponse } from './common.ts';
import { endpoints } from './endpoint.ts';

/** A 6-digit authenticator code, or a one-time recovery code (`abcde-fghij`, dash optional). */
export const TWO_FACTOR_CODE = /^(\d{6}|[A-Za-z2-7]{5}-?[A-Za-z2-7]{5})$/;

export const loginBody = z.object({
  email: z.string().trim().toLowerCase().email('Enter a valid email address').max(254),
  password: z.string().min(1, 'Password is required').max(256),
  rememberMe: z.boolean().optional(),
  /** The second factor, asked for after the password: a 6-digit authenticator code or a recovery code. */
  code: z.string().trim().regex(TWO_FACTOR_CODE, 'Enter the 6-digit code from your authenticator app').optional(),
});
export type LoginBody = z.infer<typeof loginBody>;

/** The signed-in account as the panel sees it. */
export const sessionUser = z.object({
  _id: z.string(),
  userId: z.number(),
  name: z.string().nullable(),
  fullName: z.string(),
  email: z.string(),
  /** The role's name; an empty string for an account that has no role yet (it sees "No access"). */
  role: z.string(),
  permissions: z.array(z.string()),
  twoFactorEnabled: z.boolean(),
  /** Signed in with a password, but the role requires two-factor and it is not set up yet. */
  twoFactorSetupRequired: z.boolean(),
});
export type SessionUser = z.infer<typeof sessionUser>;

export const loginResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ token: z.string(), user: sessionUser }),
});

/** A refused sign-in; `twoFactorRequired` says the password was right and a code is needed. */
export const loginErrorResponse = errorResponse.extend({ twoFactorRequired: z.boolean().optional() });

/**
 * A password someone chooses (registration, reset, invitation, /account): at least
 * PASSWORD_MIN_LENGTH characters. The server also refuses the most common passwords and ones too
 * easy to guess (server/modules/auth/password-policy.ts) with the messages below, under the field.
 */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MESSAGES = {
  short: `Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
  long: 'Password must be at most 256 characters',
  common: 'This is one of the most common passwords: choose one that is harder to guess',
  simple: 'This password repeats too few characters: choose one that is harder to guess',
  personal: 'Your password must not be your email address or username',
} as const;
export const newPassword = z.string().min(PASSWORD_MIN_LENGTH, PASSWORD_MESSAGES.short).max(256, PASSWORD_MESSAGES.long);

export const registerBody = z.object({
  name: z.string().trim().min(3, 'Username must be at least 3 characters').max(50, 'Username must be at most 50 characters')
    .regex(/^[A-Za-z0-9_.-]+$/, 'Username may contain only letters, digits, dot, dash and underscore'),
  fullName: z.string().trim().min(1, 'Full name is required').max(100, 'Full name must be at most 100 characters'),
  email: z.string().trim().toLowerCase().email('Enter a valid email address').max(254),
  phone: z.string().trim().regex(/^\+?[0-9]{10,13}$/, 'Phone number must be 10 to 13 digits'),
  address: z.string().trim().min(1, 'Address is required').max(300, 'Address must be at most 300 characters'),
  password: newPassword,
});
export type RegisterBody = z.infer<typeof registerBody>;

export const registerResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  token: z.string(),
  user: sessionUser,
});

export const forgotPasswordBody = z.object({
  email: z.string().trim().toLowerCase().email('Enter a valid email address').max(254),
});
export const resetPasswordBody = z.object({
  token: z.string().min(10, 'Invalid or expired reset token').max(200),
  newPassword,
});

/** The single-use link a registration mails (`/confirm-email?token=`): the address is the registrant's. */
export const confirmEmailBody = z.object({
  token: z.string().min(10, 'This confirmation link is invalid or has expired').max(200),
});

export const meResponse = z.object({ success: z.literal(true), data: sessionUser });

export const authApi = endpoints('auth', {
  login: {
    method: 'POST', path: '/Adminlogin', access: 'public', body: loginBody, responses: { 200: loginResponse },
    errors: { 401: loginErrorResponse },
  },
  /**
   * Self-registration. The account stays unconfirmed until the mailed link is followed: until then
   * the returned token is refused (401) and sign-in answers 403; a staff invitation for the same
   * email takes the registration over. Limited per address (REGISTER_MAX_PER_IP, 429).
   */
  register: { method: 'POST', path: '/register', access: 'public', body: registerBody, responses: { 201: registerResponse } },
  confirmEmail: {
    method: 'POST', path: '/users/confirm-email', access: 'public', body: confirmEmailBody, responses: { 200: messageResponse },
  },
  logout: { method: 'POST', path: '/users/logout', access: 'session', duringEnrolment: true, responses: { 200: messageResponse } },
  me: { method: 'GET', path: '/users/me', access: 'session', duringEnrolment: true, responses: { 200: meResponse } },
  forgotPassword: {
    method: 'POST', path: '/users/forgot-password', access: 'public', body: forgotPasswordBody, responses: { 200: messageResponse },
  },
  /** Also an invite link's first password. */
  resetPassword: {
    method: 'POST', path: '/users/reset-password', access: 'public', body: resetPasswordBody, responses: { 200: messageResponse },
  },
});
