import { z } from 'zod';
import { errorResponse, paging, sortParam } from './common.ts';
import { endpoints } from './endpoint.ts';

/** The accounts that sign in to the back-office (issue 13: staff are not members). */
export const STAFF_STATUSES = ['active', 'inactive'] as const;

/** The Staff list's sorts (`sort=fullName`, `sort=-lastSignIn`); `-userId` (newest account first) by default. */
export const STAFF_SORTS = ['userId', 'fullName', 'email', 'role', 'status', 'lastSignIn'] as const;

export const staffQuery = paging.extend({
  /** The start of a name or email, or a user id. */
  q: z.string().trim().max(100).optional(),
  status: z.enum(STAFF_STATUSES, { error: 'Status must be active or inactive' }).optional(),
  sort: sortParam(STAFF_SORTS, '-userId'),
});
export type StaffQuery = z.input<typeof staffQuery>;

export const staffMember = z.object({
  userId: z.number(),
  fullName: z.string(),
  email: z.string(),
  /** Null for an account that signs in with no role yet (self-registered): it sees "no access". */
  roleId: z.number().nullable(),
  role: z.string().nullable(),
  status: z.boolean(),
  /** ISO timestamp of the last sign-in, or null when the account never signed in. */
  lastSignIn: z.string().nullable(),
  twoFactorEnabled: z.boolean(),
  /** No password yet and an invitation link that still works. */
  invitePending: z.boolean(),
  /** False until the invitee has set a password: the invitation can be sent again. */
  passwordSet: z.boolean(),
  /**
   * A self-registration whose email link was not followed yet: it cannot sign in and cannot be
   * given a role; inviting its address takes it over.
   */
  unconfirmed: z.boolean(),
});
export type StaffMember = z.infer<typeof staffMember>;

export const staffPage = z.object({
  success: z.literal(true),
  data: z.array(staffMember),
  total: z.number(),
  page: z.number(),
  limit: z.number(),
});
export type StaffPage = z.infer<typeof staffPage>;

/** A role the Staff screen may assign: active, and not the members' role. */
export const staffRole = z.object({ roleId: z.number(), name: z.string(), twoFactorRequired: z.boolean() });
export type StaffRole = z.infer<typeof staffRole>;
export const staffRolesResponse = z.object({ success: z.literal(true), data: z.array(staffRole) });

const roleId = z.coerce
  .number({ error: 'Please select a role' })
  .int('Please select a role')
  .positive('Please select a role')
  .max(2_147_483_647, 'Please select a role');
const fullName = z.string({ error: 'Full name is required' }).trim().min(1, 'Full name is required').max(100, 'Full name must be at most 100 characters');
const email = z.string({ error: 'Email is required' }).trim().toLowerCase().email('Enter a valid email address').max(254);

export const inviteStaffBody = z.object({ fullName, email, roleId });
export type InviteStaffBody = z.input<typeof inviteStaffBody>;

export const updateStaffBody = z
  .object({ fullName: fullName.optional(), email: email.optional() })
  .refine((b) => b.fullName !== undefined || b.email !== undefined, 'Give a new full name or email');
export type UpdateStaffBody = z.input<typeof updateStaffBody>;

export const staffRoleBody = z.object({ roleId });
export type StaffRoleBody = z.input<typeof staffRoleBody>;

export const staffStatusBody = z.object({ status: z.boolean({ error: 'Status must be true (active) or false (inactive)' }) });
export type StaffStatusBody = z.input<typeof staffStatusBody>;

export const staffParams = z.object({ userId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

export const staffResponse = z.object({ success: z.literal(true), message: z.string(), data: staffMember });
export type StaffResponse = z.infer<typeof staffResponse>;

/** The invitation mail could not be sent (the account exists: send it again). */
const mailFailed = { 502: errorResponse };
const access = 'staff_manage';

/** The Staff screen's API (issue 13): the only place where accounts that sign in are invited, given a role, switched off or signed out. */
export const staffApi = endpoints('staff', {
  list: { method: 'GET', path: '/staff', access, query: staffQuery, responses: { 200: staffPage } },
  /** The filtered list as CSV, in the list's order (issue 24). */
  csv: { method: 'GET', path: '/staff.csv', access, query: staffQuery.omit({ page: true, limit: true }), file: 'csv', responses: {} },
  roles: { method: 'GET', path: '/staff/roles', access, responses: { 200: staffRolesResponse } },
  invite: { method: 'POST', path: '/staff/invite', access, body: inviteStaffBody, responses: { 201: staffResponse }, errors: mailFailed },
  resendInvite: {
    method: 'POST', path: '/staff/:userId/invite', access, params: staffParams, responses: { 200: staffResponse }, errors: mailFailed,
  },
  update: { method: 'PUT', path: '/staff/:userId', access, params: staffParams, body: updateStaffBody, responses: { 200: staffResponse } },
  changeRole: {
    method: 'PUT', path: '/staff/:userId/role', access, params: staffParams, body: staffRoleBody, responses: { 200: staffResponse },
  },
  setStatus: {
    method: 'PUT', path: '/staff/:userId/status', access, params: staffParams, body: staffStatusBody, responses: { 200: staffResponse },
  },
  signOut: { method: 'POST', path: '/staff/:userId/sign-out', access, params: staffParams, responses: { 200: staffResponse } },
});
