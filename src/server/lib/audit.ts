import { sql } from 'drizzle-orm';
import { auditLog } from '../db/schema/system.ts';
import type { Db } from '../db/client.ts';
import type { Actor } from './context.ts';

export interface AuditEntry {
  action: string;
  entity: string;
  entityId?: string | number | null;
  before?: unknown;
  after?: unknown;
  /** Who acted, when it is not the signed-in account (sign-in, registration, password reset). */
  actorId?: number;
}

/** Strips secrets before a row is written to the audit log. */
function redact(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value ?? null;
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const key of ['passwordHash', 'password_hash', 'password', 'token', 'tokenHash']) delete copy[key];
  return copy;
}

/** The audit_log row of an entry (secrets stripped). */
export function auditRow(actor: Actor | null, entry: AuditEntry) {
  return {
    actorId: entry.actorId ?? actor?.auth?.userId ?? null,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId == null ? null : String(entry.entityId),
    before: redact(entry.before),
    after: redact(entry.after),
    ip: actor?.ip || null,
  };
}

/**
 * Records who changed what; call it inside the transaction that makes the change. The actor's
 * name is stored as the row is written (audit_log.actor_name), read in the insert itself:
 * renaming someone later must not rewrite who did what.
 */
export async function audit(db: Db, actor: Actor | null, entry: AuditEntry): Promise<void> {
  const row = auditRow(actor, entry);
  await db.insert(auditLog).values({
    ...row,
    actorName: row.actorId === null ? null : sql`(select full_name from users where user_id = ${row.actorId}::int8)`,
  });
}
