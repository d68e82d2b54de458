import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../contract/common.ts';
import {
  rankBody, rankChangedResponse, rankDeletedResponse, rankIdParam, rankResponse, ranksResponse,
} from '../../../contract/ranks.ts';
import { ranks } from '../../db/schema/catalogue.ts';
import { audit } from '../../plugins/audit.ts';
import { AppError } from '../../plugins/errors.ts';
import { findRank, holders, listRanks, nameTaken, toRank } from './ranks.repository.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const NOT_FOUND = 'Rank not found';
const duplicate = (name: string) => `A rank named "${name}" already exists`;

const wireRank = (r: typeof ranks.$inferSelect) =>
  toRank({ rank_id: r.rankId, name: r.name, status: r.status, created_at: r.createdAt });

export async function ranksRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database } = app;

  app.get('/ranks/getAllRank', {
    config: { access: 'ranks_view' },
    schema: { tags: ['ranks'], response: { 200: ranksResponse, ...errors } },
  }, async () => ({ success: true as const, data: await listRanks(database) }));

  app.get('/ranks/getRankById/:id', {
    config: { access: 'ranks_view' },
    schema: { tags: ['ranks'], params: rankIdParam, response: { 200: rankResponse, ...errors } },
  }, async (request) => {
    const found = await findRank(database, request.params.id);
    if (!found) throw new AppError(404, NOT_FOUND);
    return { success: true as const, data: found };
  });

  app.post('/ranks/createRank', {
    config: { access: 'ranks_manage' },
    schema: { tags: ['ranks'], body: rankBody, response: { 201: rankChangedResponse, ...errors } },
  }, async (request, reply) => {
    const { name, status } = request.body;
    if (await nameTaken(database, name)) throw new AppError(409, duplicate(name));
    const created = await database.db.transaction(async (tx) => {
      const [row] = await tx.insert(ranks).values({ name, status }).returning();
      await audit(tx, request, { action: 'create', entity: 'rank', entityId: row.rankId, after: row });
      return row;
    });
    return reply.code(201).send({ success: true as const, message: 'Rank created successfully', data: wireRank(created) });
  });

  app.put('/ranks/updateRank/:id', {
    config: { access: 'ranks_manage' },
    schema: { tags: ['ranks'], params: rankIdParam, body: rankBody, response: { 200: rankChangedResponse, ...errors } },
  }, async (request) => {
    const { id } = request.params;
    const { name, status } = request.body;
    const before = await findRank(database, id);
    if (!before) throw new AppError(404, NOT_FOUND);
    if (await nameTaken(database, name, id)) throw new AppError(409, duplicate(name));
    const updated = await database.db.transaction(async (tx) => {
      const [row] = await tx.update(ranks).set({ name, status }).where(eq(ranks.rankId, id)).returning();
      if (!row) throw new AppError(404, NOT_FOUND);
      await audit(tx, request, { action: 'update', entity: 'rank', entityId: id, before, after: row });
      return row;
    });
    return { success: true as const, message: 'Rank updated successfully', data: wireRank(updated) };
  });

  app.delete('/ranks/deleteRank/:id', {
    config: { access: 'ranks_manage' },
    schema: { tags: ['ranks'], params: rankIdParam, response: { 200: rankDeletedResponse, ...errors } },
  }, async (request) => {
    const { id } = request.params;
    const before = await findRank(database, id);
    if (!before) throw new AppError(404, NOT_FOUND);
    const held = await holders(database, id);
    if (held > 0) {
      throw new AppError(409, `The rank "${before.name}" is held by ${held.toLocaleString('en-IN')} member(s) and cannot be deleted. Set it inactive instead.`);
    }
    await database.db.transaction(async (tx) => {
      await tx.delete(ranks).where(eq(ranks.rankId, id));
      await audit(tx, request, { action: 'delete', entity: 'rank', entityId: id, before });
    });
    return { success: true as const, message: 'Rank deleted successfully' };
  });
}
