import { AUDIT_COUNT_CAP, type AUDIT_SORTS, type AuditEntry } from '../../../contract/audit.ts';
import type { SortValue } from '../../../contract/common.ts';
import { orderSql } from '../../lib/order.ts';
import type { Database } from '../../db/client.ts';
import { iso, type CountRow } from '../../db/rows.ts';
import type { auditLog } from '../../db/schema/system.ts';

export interface AuditFilter {
  actor?: string;
  entity?: string;
  entityId?: string;
  action?: string;
  fromDate?: string;
  toDate?: string;
}

/** WHERE clause and parameters; dates are business days in Asia/Kolkata. */
function where(f: AuditFilter): { text: string; params: unknown[] } {
  const params: unknown[] = [];
  const p = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const parts: string[] = [];
  if (f.actor) {
    const namePrefix = `${f.actor.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
    parts.push(
      /^\d+$/.test(f.actor)
        ? `a.actor_id = ${p(Number(f.actor))}`
        : `a.actor_id in (select user_id from users where email = ${p(f.actor.toLowerCase())}
             or lower(full_name) like ${p(namePrefix)} limit 100)`,
    );
  }
  if (f.entity) parts.push(`a.entity = ${p(f.entity)}`);
  if (f.entityId) parts.push(`a.entity_id = ${p(f.entityId)}`);
  if (f.action) parts.push(`a.action = ${p(f.action)}`);
  if (f.fromDate) parts.push(`a.created_at >= (${p(f.fromDate)}::date)::timestamp at time zone 'Asia/Kolkata'`);
  if (f.toDate) parts.push(`a.created_at < (${p(f.toDate)}::date + 1)::timestamp at time zone 'Asia/Kolkata'`);
  return { text: parts.length ? `where ${parts.join(' and ')}` : '', params };
}

// The name the actor had when the row was written; rows from before audit_log.actor_name existed
// fall back to the current one.
const COLUMNS = `a.id, a.actor_id as "actorId", coalesce(a.actor_name, u.full_name) as "actorName", a.action, a.entity,
  a.entity_id as "entityId", a.before, a.after, a.ip, a.created_at as "createdAt"`;

/** A row as the raw statements give it: the time as the driver reads it (text or Date). */
type AuditRow = Omit<typeof auditLog.$inferSelect, 'createdAt'> & { createdAt: Date | string };

const toEntry = (r: AuditRow): AuditEntry => ({
  id: r.id,
  actorId: r.actorId,
  actorName: r.actorName,
  action: r.action,
  entity: r.entity,
  entityId: r.entityId,
  before: r.before ?? null,
  after: r.after ?? null,
  ip: r.ip,
  createdAt: iso(r.createdAt),
});

export type AuditSort = SortValue<(typeof AUDIT_SORTS)[number]>;

/** Each sort walks an index of (column, id): audit_log_created_id_idx, _action_id_idx, _entity_id_idx. */
const SORT_COLUMNS = { createdAt: 'a.created_at', action: 'a.action', entity: 'a.entity' };

export async function listAudit(database: Database, f: AuditFilter, sort: AuditSort, page: number, limit: number) {
  const w = where(f);
  const rows = await database.query<AuditRow>(
    `select ${COLUMNS} from audit_log a left join users u on u.user_id = a.actor_id ${w.text}
      order by ${orderSql(sort, SORT_COLUMNS, 'a.id')} limit ${limit} offset ${(page - 1) * limit}`,
    w.params,
  );
  const [{ n }] = await database.query<CountRow>(
    `select count(*)::int as n from (select 1 from audit_log a ${w.text} limit ${AUDIT_COUNT_CAP + 1}) c`,
    w.params,
  );
  return { data: rows.map(toEntry), total: Math.min(n, AUDIT_COUNT_CAP), capped: n > AUDIT_COUNT_CAP };
}

/** One batch of matches older than `beforeId`, newest first (keyset paging for the CSV export). */
export async function auditBatch(database: Database, f: AuditFilter, beforeId: number | null, batch: number) {
  const w = where(f);
  const cursor = `$${w.params.length + 1}`;
  const rows = await database.query<AuditRow>(
    `select ${COLUMNS} from audit_log a left join users u on u.user_id = a.actor_id
      ${w.text ? `${w.text} and` : 'where'} a.id < ${cursor} order by a.id desc limit ${batch}`,
    [...w.params, beforeId ?? Number.MAX_SAFE_INTEGER],
  );
  return rows.map(toEntry);
}
