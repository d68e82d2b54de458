import type { Member, MembershipCsvFilter } from '../../../contract/membership.ts';
import type { Ctx } from '../../lib/context.ts';
import * as repo from './membership.repository.ts';

/** Memberships of live members, newest first, filtered by the day they were taken. */
export async function listMembers(ctx: Ctx, filter: repo.MembershipFilter): Promise<{ data: Member[]; total: number }> {
  return repo.listMembers(ctx.database.db, filter);
}

/** One CSV batch of the filtered list, in its order (keyset). */
export function membersBatch(ctx: Ctx, filter: MembershipCsvFilter, after: repo.MembershipKeyset | null, size: number) {
  return repo.membersBatch(ctx.database, filter, after, size);
}
