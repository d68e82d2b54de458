import type { Member } from '../../../contract/membership.ts';
import type { Ctx } from '../../lib/context.ts';
import * as repo from './membership.repository.ts';

/** Memberships of live members, newest first, filtered by the day they were taken. */
export async function listMembers(ctx: Ctx, filter: repo.MembershipFilter): Promise<{ data: Member[]; total: number }> {
  return repo.listMembers(ctx.database.db, filter);
}
