import type { Health } from '../../../contract/system.ts';
import type { Ctx } from '../../lib/context.ts';

/**
 * Whether the database answers. At once even while every pooled connection is busy with heavy
 * requests (ping has its own connection), or a balancer would take a busy copy for a dead one.
 */
export async function health(ctx: Ctx): Promise<Health> {
  const { database } = ctx;
  try {
    await database.ping();
    return { success: true, status: 'ok', database: database.kind };
  } catch {
    return { success: false, status: 'unavailable', database: database.kind };
  }
}
