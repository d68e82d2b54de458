import { rupeesToPaise } from '../../../contract/common.ts';
import type { Rank, RankBody } from '../../../contract/ranks.ts';
import { audit } from '../../lib/audit.ts';
import type { Ctx } from '../../lib/context.ts';
import { AppError } from '../../lib/errors.ts';
import * as repo from './ranks.repository.ts';

const NOT_FOUND = 'Rank not found';
const duplicate = (name: string) => `A rank named "${name}" already exists`;

type RankInput = Required<Pick<RankBody, 'name' | 'status'>> & Omit<RankBody, 'name' | 'status'>;

/** The criteria the body gives (rupees to paise); a field left out is left out. */
function criteriaOf(input: RankInput): Partial<repo.RankValues> {
  const values: Partial<repo.RankValues> = {
    position: input.position,
    royaltyWeight: input.royaltyWeight,
    minDirect: input.minDirect,
    minTeam: input.minTeam,
    minBusinessPaise: input.minBusiness === undefined ? undefined : rupeesToPaise(input.minBusiness),
    monthlyRewardPaise: input.monthlyReward === undefined ? undefined : rupeesToPaise(input.monthlyReward),
  };
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}

export async function listRanks(ctx: Ctx): Promise<Rank[]> {
  return (await repo.listRanks(ctx.database.db)).map(repo.toRank);
}

/** One batch of the ranks export, by id. */
export async function ranksBatch(ctx: Ctx, afterId: number, limit: number): Promise<Rank[]> {
  return (await repo.ranksBatch(ctx.database.db, afterId, limit)).map(repo.toRank);
}

export async function getRank(ctx: Ctx, rankId: number): Promise<Rank> {
  const row = await repo.findRank(ctx.database.db, rankId);
  if (!row) throw new AppError(404, NOT_FOUND);
  return repo.toRank(row);
}

/**
 * Rank criteria feed the income engine (promotions, royalty weights, monthly rewards): setting
 * them needs income_settings as well as ranks_manage (contract/permissions.ts). Sending the
 * stored values again (an edit form that shows them) is not a change.
 */
function checkCriteriaPermission(ctx: Ctx, criteria: Partial<repo.RankValues>, before: repo.RankRow | null) {
  const changed = Object.entries(criteria).some(([key, value]) => value !== (before ? before[key as keyof repo.RankRow] : 0));
  if (changed && !ctx.auth?.permissions.has('income_settings')) {
    throw new AppError(403, 'Setting the position, royalty weight, criteria or monthly reward of a rank needs the income_settings permission');
  }
}

/** Names are unique in any letter case (409). */
export async function createRank(ctx: Ctx, input: RankInput): Promise<Rank> {
  checkCriteriaPermission(ctx, criteriaOf(input), null);
  if (await repo.nameTaken(ctx.database.db, input.name)) throw new AppError(409, duplicate(input.name));
  const created = await ctx.database.db.transaction(async (tx) => {
    const row = await repo.insertRank(tx, { name: input.name, status: input.status, ...criteriaOf(input) });
    await audit(tx, ctx, { action: 'create', entity: 'rank', entityId: row.rankId, after: row });
    return row;
  });
  return repo.toRank(created);
}

export async function updateRank(ctx: Ctx, rankId: number, input: RankInput): Promise<Rank> {
  const before = await repo.findRank(ctx.database.db, rankId);
  if (!before) throw new AppError(404, NOT_FOUND);
  checkCriteriaPermission(ctx, criteriaOf(input), before);
  if (await repo.nameTaken(ctx.database.db, input.name, rankId)) throw new AppError(409, duplicate(input.name));
  const updated = await ctx.database.db.transaction(async (tx) => {
    const row = await repo.updateRank(tx, rankId, { name: input.name, status: input.status, ...criteriaOf(input) });
    if (!row) throw new AppError(404, NOT_FOUND);
    await audit(tx, ctx, { action: 'update', entity: 'rank', entityId: rankId, before: repo.toRank(before), after: row });
    return row;
  });
  return repo.toRank(updated);
}

/** A rank members hold (deleted members too) cannot be deleted: it is set inactive instead (409). */
export async function deleteRank(ctx: Ctx, rankId: number): Promise<void> {
  const before = await repo.findRank(ctx.database.db, rankId);
  if (!before) throw new AppError(404, NOT_FOUND);
  const held = await repo.holders(ctx.database.db, rankId);
  if (held > 0) {
    throw new AppError(409, `The rank "${before.name}" is held by ${held.toLocaleString('en-IN')} member(s) and cannot be deleted. Set it inactive instead.`);
  }
  await ctx.database.db.transaction(async (tx) => {
    await repo.deleteRank(tx, rankId);
    await audit(tx, ctx, { action: 'delete', entity: 'rank', entityId: rankId, before: repo.toRank(before) });
  });
}
