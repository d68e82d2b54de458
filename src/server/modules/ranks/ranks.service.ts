import type { Rank, RankBody } from '../../../contract/ranks.ts';
import { audit } from '../../lib/audit.ts';
import type { Ctx } from '../../lib/context.ts';
import { AppError } from '../../lib/errors.ts';
import * as repo from './ranks.repository.ts';

const NOT_FOUND = 'Rank not found';
const duplicate = (name: string) => `A rank named "${name}" already exists`;

type RankInput = Required<Pick<RankBody, 'name' | 'status'>>;

export async function listRanks(ctx: Ctx): Promise<Rank[]> {
  return (await repo.listRanks(ctx.database.db)).map(repo.toRank);
}

export async function getRank(ctx: Ctx, rankId: number): Promise<Rank> {
  const row = await repo.findRank(ctx.database.db, rankId);
  if (!row) throw new AppError(404, NOT_FOUND);
  return repo.toRank(row);
}

/** Names are unique in any letter case (409). */
export async function createRank(ctx: Ctx, input: RankInput): Promise<Rank> {
  if (await repo.nameTaken(ctx.database.db, input.name)) throw new AppError(409, duplicate(input.name));
  const created = await ctx.database.db.transaction(async (tx) => {
    const row = await repo.insertRank(tx, input);
    await audit(tx, ctx, { action: 'create', entity: 'rank', entityId: row.rankId, after: row });
    return row;
  });
  return repo.toRank(created);
}

export async function updateRank(ctx: Ctx, rankId: number, input: RankInput): Promise<Rank> {
  const before = await repo.findRank(ctx.database.db, rankId);
  if (!before) throw new AppError(404, NOT_FOUND);
  if (await repo.nameTaken(ctx.database.db, input.name, rankId)) throw new AppError(409, duplicate(input.name));
  const updated = await ctx.database.db.transaction(async (tx) => {
    const row = await repo.updateRank(tx, rankId, input);
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
