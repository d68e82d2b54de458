import type { DownlineMember, DownlineTree, MemberRef, NetworkNode } from '../../../contract/network.ts';
import type { Ctx } from '../../lib/context.ts';
import { AppError } from '../../lib/errors.ts';
import { memberNotFound, requireUser } from '../users/users.service.ts';
import * as repo from './network.repository.ts';

interface Page {
  page: number;
  limit: number;
}

/** A live member's direct referrals (live ones), oldest first, a page, with their total. */
export async function directDownline(ctx: Ctx, { userId, page, limit }: Page & { userId: number }): Promise<{ total: number; members: DownlineMember[] }> {
  const downline = await repo.directDownline(ctx.database, userId, page, limit);
  if (!downline) throw memberNotFound();
  return downline;
}

export interface Tree {
  user: MemberRef;
  depth: number;
  totalMember: number;
  levels: DownlineTree['levels'];
}

/** Everyone within `depth` levels below a live member: each level's count and its first `limit` members. */
export async function downlineTree(ctx: Ctx, { userId, depth, limit }: { userId: number; depth: number; limit: number }): Promise<Tree> {
  const tree = await repo.downlineTree(ctx.database, userId, depth, limit);
  if (!tree) throw memberNotFound();
  const { member, levels } = tree;
  return {
    user: { userId, fullName: member.fullName, level: member.level, referralCode: member.referralCode, status: member.status },
    depth,
    totalMember: levels.reduce((sum, l) => sum + l.count, 0),
    levels,
  };
}

/** A live member's referral card: their code, their referrer and how many they referred directly. */
export async function referral(ctx: Ctx, userId: number) {
  const member = await requireUser(ctx, userId);
  return {
    userId: member.userId,
    fullName: member.fullName,
    referralCode: member.referralCode,
    level: member.level,
    referredBy: member.referredBy,
    referrerName: member.referrerName,
    directReferrals: await repo.directReferralCount(ctx.database.db, member.userId),
  };
}

/** The chain of referrers above a live member, nearest first. */
export async function upline(ctx: Ctx, userId: number): Promise<MemberRef[]> {
  await requireUser(ctx, userId);
  return repo.upline(ctx.database.db, userId);
}

/** One page of a member's direct referrals for the genealogy; a deleted member's branch opens too. */
export async function children(ctx: Ctx, { userId, page, limit }: Page & { userId: number }): Promise<{ total: number; nodes: NetworkNode[] }> {
  if (!(await repo.memberExists(ctx.database.db, userId))) throw new AppError(404, 'User ID not found');
  return repo.childrenPage(ctx.database.db, userId, page, limit);
}
