import { z } from 'zod';

export const loginBody = z.object({
  email: z.string().trim().toLowerCase().email('Enter a valid email address').max(254),
  password: z.string().min(1, 'Password is required').max(256),
  rememberMe: z.boolean().optional(),
});
export type LoginBody = z.infer<typeof loginBody>;

/** The signed-in account as the panel sees it. */
export const sessionUser = z.object({
  _id: z.string(),
  userId: z.number(),
  name: z.string().nullable(),
  fullName: z.string(),
  email: z.string(),
  role: z.string(),
  permissions: z.array(z.string()),
});
export type SessionUser = z.infer<typeof sessionUser>;

export const loginResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ token: z.string(), user: sessionUser }),
});

export const registerBody = z.object({
  name: z.string().trim().min(3, 'Username must be at least 3 characters').max(50)
    .regex(/^[A-Za-z0-9_.-]+$/, 'Username may contain only letters, digits, dot, dash and underscore'),
  fullName: z.string().trim().min(1, 'Full name is required').max(100),
  email: z.string().trim().toLowerCase().email('Enter a valid email address').max(254),
  phone: z.string().trim().regex(/^\+?[0-9]{10,13}$/, 'Phone number must be 10 to 13 digits'),
  address: z.string().trim().min(1, 'Address is required').max(300),
  password: z.string().min(8, 'Password must be at least 8 characters').max(256),
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
  newPassword: z.string().min(8, 'Password must be at least 8 characters').max(256),
});

export const okResponse = z.object({ success: z.literal(true), message: z.string() });

export const meResponse = z.object({ success: z.literal(true), data: sessionUser });
