import { z } from 'zod';
import { paging, sortParam, wireDate } from './common.ts';
import { endpoints } from './endpoint.ts';

/** The records the audit log names (entity column). */
export const AUDIT_ENTITIES = [
  'user', 'session', 'rank', 'bank_account', 'membership', 'permission', 'role', 'role_permission',
  'service', 'wallet', 'ledger_entry', 'payout', 'withdrawal',
] as const;

/** The columns the audit log sorts by (`sort=action`, `sort=-createdAt`); each has an index with the id. */
export const AUDIT_SORTS = ['createdAt', 'action', 'entity'] as const;

export const auditQuery = paging
  .extend({
    /** A user id, an email, or the start of a name. */
    actor: z.string().trim().max(100).optional(),
    entity: z.string().trim().max(50).optional(),
    entityId: z.string().trim().max(50).optional(),
    action: z.string().trim().max(50).optional(),
    fromDate: wireDate.optional(),
    toDate: wireDate.optional(),
    sort: sortParam(AUDIT_SORTS, '-createdAt'),
  })
  .refine((q) => !q.fromDate || !q.toDate || q.fromDate <= q.toDate, {
    message: 'fromDate must not be after toDate',
    path: ['fromDate'],
  });
export type AuditQuery = z.input<typeof auditQuery>;

export const auditEntry = z.object({
  id: z.number(),
  actorId: z.number().nullable(),
  actorName: z.string().nullable(),
  action: z.string(),
  entity: z.string(),
  entityId: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  ip: z.string().nullable(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

/** Counting stops at this many matches: the page says "10,000+" rather than scan millions. */
export const AUDIT_COUNT_CAP = 10_000;

export const auditPage = z.object({
  success: z.literal(true),
  data: z.array(auditEntry),
  total: z.number(),
  /** True when there are more matches than `total` counted. */
  totalCapped: z.boolean(),
  page: z.number(),
  limit: z.number(),
});
export type AuditPage = z.infer<typeof auditPage>;

export const auditApi = endpoints('audit', {
  list: { method: 'GET', path: '/audit/logs', access: 'audit_view', query: auditQuery, responses: { 200: auditPage } },
  csv: { method: 'GET', path: '/audit/logs.csv', access: 'audit_view', query: auditQuery, file: 'csv', responses: {} },
});
