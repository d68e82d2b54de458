import { z } from 'zod';
import { messageResponse, paging, sortParam } from './common.ts';
import { endpoints } from './endpoint.ts';

/** Levels of the user filter (spec §9). */
export const LEVELS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;

/** A member or account as every user call answers it (spec §3 User). */
export const user = z.object({
  _id: z.string(),
  userId: z.number(),
  fullName: z.string(),
  email: z.string(),
  phone: z.string(),
  address: z.string().nullable(),
  companyName: z.string().nullable(),
  role: z.string(),
  status: z.boolean(),
  /** An ISO timestamp, or 'Never'. */
  lastLogin: z.string(),
  referredBy: z.number().nullable(),
  referrerName: z.string().nullable(),
  rank: z.string().nullable(),
  rankId: z.number().nullable(),
  level: z.number(),
  dob: z.string().nullable(),
  whatsapp: z.string().nullable(),
  image: z.string().nullable(),
  state: z.string().nullable(),
  referralCode: z.string(),
  createdAt: z.string(),
});
export type User = z.infer<typeof user>;

/** The columns the users list sorts by (`sort=fullName`, `sort=-level`); each order is served by an index. */
export const USER_SORT_KEYS = ['userId', 'createdAt', 'fullName', 'email', 'status', 'level'] as const;
export type UserSortKey = (typeof USER_SORT_KEYS)[number];
/** Newest first by default. */
export const USER_SORTS = USER_SORT_KEYS.flatMap((k) => [`-${k}`, k] as const);
export type UserSort = `-${UserSortKey}` | UserSortKey;

export const usersQuery = paging.extend({
  rankId: z.coerce.number().int().positive().optional(),
  level: z.coerce.number().int().min(0).max(1000).optional(),
  search: z.string().trim().max(100).optional(),
  sort: sortParam(USER_SORT_KEYS, '-userId'),
});

export const usersPage = z.object({
  success: z.literal(true),
  users: z.array(user),
  /** Every match, not just this page. */
  total: z.number(),
  page: z.number(),
  limit: z.number(),
});
export type UsersPage = z.infer<typeof usersPage>;

const imageUrl = z.string().trim().max(500).regex(/^https?:\/\/\S+$/i, 'Profile image must be a URL');
const phone = z.string().trim().regex(/^\+?[0-9]{10,13}$/, 'Phone number must be 10 to 13 digits');
const isoDay = /^\d{4}-\d{2}-\d{2}$/;

/** yyyy-mm-dd of a real day between 1900-01-01 and today. */
export const dateOfBirth = z
  .string()
  .trim()
  .refine((v) => {
    if (!isoDay.test(v)) return false;
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
  }, 'Date of birth must be a real date (yyyy-mm-dd)')
  .refine((v) => v >= '1900-01-01' && v <= new Date().toISOString().slice(0, 10), 'Date of birth must be in the past');

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalText = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());

/** POST /users/register (spec §3: fullName, dob, email, phone, optional referralCode, whatsapp, image). */
export const createUserBody = z.object({
  // Issue 24: a longer name is refused with this message (the form no longer cuts it silently).
  fullName: z.string().trim().min(1, 'Full name is required').max(100, 'Full name must be at most 100 characters'),
  dob: dateOfBirth,
  email: z.string().trim().toLowerCase().email('Enter a valid email address').max(254),
  phone,
  referralCode: optionalText(z.string().trim().max(30)),
  whatsapp: optionalText(phone),
  image: optionalText(imageUrl),
});
export type CreateUserBody = z.input<typeof createUserBody>;

/**
 * PUT /users/updateByUserId/{userId}: the form's fields, plus status and rank. The referrer is fixed
 * at registration: moving a member would re-level their whole downline.
 */
export const updateUserBody = createUserBody
  .omit({ referralCode: true })
  .partial()
  .extend({
    whatsapp: z.preprocess((v) => (v === '' ? null : v), phone.nullable().optional()),
    image: z.preprocess((v) => (v === '' ? null : v), imageUrl.nullable().optional()),
    status: z.boolean().optional(),
    rankId: z.number().int().positive().nullable().optional(),
    address: z.string().trim().max(300).nullable().optional(),
    companyName: z.string().trim().max(200).nullable().optional(),
  });
export type UpdateUserBody = z.input<typeof updateUserBody>;

export const userIdParam = z.object({ userId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
export const idParam = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

export const userResponse = z.object({ success: z.literal(true), user });
export const createdUserResponse = z.object({ success: z.literal(true), message: z.string(), user });
export const updatedUserResponse = z.object({ success: z.literal(true), message: z.string(), updatedUser: user });

/**
 * The levels the Level filter offers beyond 1 to 10 (spec §9): every level some live member holds,
 * so that members referred below level 10 can be found by level too.
 */
export const userLevelsResponse = z.object({ success: z.literal(true), levels: z.array(z.number()) });

export const usersByRankQuery = paging.extend({ rankId: z.coerce.number().int().positive() });

/** The list's filter without its page and order: the export and "every member the filter matches". */
export const usersFilterQuery = usersQuery.pick({ rankId: true, level: true, search: true });

/** Issue 24: bulk work on members. At most this many ids per request (one chunk of the panel's run). */
export const BULK_CHUNK_MAX = 500;
/** "Select all matching" reads at most this many ids; a wider filter is refused with a message. */
export const BULK_IDS_MAX = 10_000;
export const tooManyToSelect = (total: number) =>
  `${total.toLocaleString('en-IN')} members match: at most ${BULK_IDS_MAX.toLocaleString('en-IN')} can be changed at once. Narrow the filter (level, rank or search) and try again`;

export const memberIdsResponse = z.object({ success: z.literal(true), ids: z.array(z.number()), total: z.number() });

export const bulkStatusBody = z.object({
  ids: z.array(z.number({ error: 'Each id must be a user id' }).int().positive(), { error: 'ids must be a list of user ids' })
    .min(1, 'Choose at least one member')
    .max(BULK_CHUNK_MAX, `At most ${BULK_CHUNK_MAX} members at a time`)
    .refine((ids) => new Set(ids).size === ids.length, 'Each member may be named once'),
  /** true: activate, false: deactivate. */
  status: z.boolean({ error: 'Status must be true or false' }),
});
export type BulkStatusBody = z.input<typeof bulkStatusBody>;

/** Per member: done (with a note when nothing needed doing: 'Already active'), or failed with the reason. */
export const bulkResultResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  done: z.array(z.object({ id: z.number(), note: z.string().optional() })),
  failed: z.array(z.object({ id: z.number(), message: z.string() })),
});
export type BulkResult = z.infer<typeof bulkResultResponse>;

export const usersApi = endpoints('users', {
  list: { method: 'GET', path: '/users/getAllusers', access: 'users_view', query: usersQuery, responses: { 200: usersPage } },
  levels: { method: 'GET', path: '/users/levels', access: 'users_view', responses: { 200: userLevelsResponse } },
  byRank: { method: 'GET', path: '/users/getUsersByRank', access: 'users_view', query: usersByRankQuery, responses: { 200: usersPage } },
  get: { method: 'GET', path: '/users/updateByUserId/:id', access: 'users_view', params: idParam, responses: { 200: userResponse } },
  update: {
    method: 'PUT', path: '/users/updateByUserId/:id', access: 'users_edit', params: idParam, body: updateUserBody,
    responses: { 200: updatedUserResponse },
  },
  create: { method: 'POST', path: '/users/register', access: 'users_create', body: createUserBody, responses: { 201: createdUserResponse } },
  remove: { method: 'DELETE', path: '/users/deleteByUserId/:userId', access: 'users_delete', params: userIdParam, responses: { 200: messageResponse } },
  /** Every member id the filter matches, at most BULK_IDS_MAX (400 above): "Select all N matching". */
  ids: { method: 'GET', path: '/users/ids', access: 'users_view', query: usersFilterQuery, responses: { 200: memberIdsResponse } },
  /** Activate or deactivate up to BULK_CHUNK_MAX members; honours Idempotency-Key; staff are never changed. */
  bulkStatus: {
    method: 'POST', path: '/users/bulk-status', access: 'users_edit', body: bulkStatusBody, responses: { 200: bulkResultResponse },
  },
  /** The filtered list as CSV (every match, by user id), streamed. */
  csv: { method: 'GET', path: '/users/members.csv', access: 'users_view', query: usersFilterQuery, file: 'csv', responses: {} },
});
