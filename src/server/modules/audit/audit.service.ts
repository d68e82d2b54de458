import type { Ctx } from '../../lib/context.ts';
import * as repo from './audit.repository.ts';

export function listAudit(ctx: Ctx, filter: repo.AuditFilter, sort: repo.AuditSort, page: number, limit: number) {
  return repo.listAudit(ctx.database, filter, sort, page, limit);
}

export function auditBatch(ctx: Ctx, filter: repo.AuditFilter, beforeId: number | null, size: number) {
  return repo.auditBatch(ctx.database, filter, beforeId, size);
}
