import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  bankChangedResponse, bankDeletedResponse, bankIdParam, banksPage, banksQuery, banksResponse, bankUserParam,
  createBankBody, updateBankBody,
} from '../../../contract/banks.ts';
import { errorResponse } from '../../../contract/common.ts';
import { bankAccounts } from '../../db/schema/members.ts';
import { audit } from '../../plugins/audit.ts';
import { AppError } from '../../plugins/errors.ts';
import { requireUser } from '../users/users.service.ts';
import {
  banksOfUser, clearPrimary, findBank, hasPrimary, listBanks, promoteOldest, sameAccountExists, toBankAccount,
} from './banks.repository.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const NOT_FOUND = 'Bank account not found';
const DUPLICATE = 'This bank account (account number and IFSC) is already added for this member';

export async function banksRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { database } = app;

  /** A bank account of a live member, or 404. */
  async function requireBank(bankId: number) {
    const row = await findBank(database, bankId);
    if (!row) throw new AppError(404, NOT_FOUND);
    await requireUser(app, Number(row.userId)).catch(() => {
      throw new AppError(404, NOT_FOUND);
    });
    return row;
  }

  app.get('/banks/getBanksByUserId/:userId', {
    config: { access: 'banks_view' },
    schema: { tags: ['banks'], params: bankUserParam, response: { 200: banksResponse, ...errors } },
  }, async (request) => {
    await requireUser(app, request.params.userId);
    return { success: true as const, data: await banksOfUser(database, request.params.userId) };
  });

  app.get('/banks/getAllBanks', {
    config: { access: 'banks_view' },
    schema: { tags: ['banks'], querystring: banksQuery, response: { 200: banksPage, ...errors } },
  }, async (request) => {
    const q = request.query;
    const { data, total } = await listBanks(database, q);
    return { success: true as const, data, total, page: q.page, limit: q.limit };
  });

  app.post('/banks/createBankAccount', {
    config: { access: 'banks_manage' },
    schema: { tags: ['banks'], body: createBankBody, response: { 201: bankChangedResponse, ...errors } },
  }, async (request, reply) => {
    const input = request.body;
    await requireUser(app, input.userId);
    if (await sameAccountExists(database, input)) throw new AppError(409, DUPLICATE);
    // A member's first account is their primary one.
    const isPrimary = input.isPrimary ?? !(await hasPrimary(database, input.userId));
    const created = await database.db.transaction(async (tx) => {
      if (isPrimary) await clearPrimary(tx, input.userId);
      const [row] = await tx.insert(bankAccounts).values({ ...input, branch: input.branch ?? null, isPrimary }).returning();
      await audit(tx, request, { action: 'create', entity: 'bank_account', entityId: row.bankId, after: row });
      return row;
    });
    return reply.code(201).send({ success: true as const, message: 'Bank account created successfully', data: toBankAccount(created) });
  });

  app.put('/banks/updateBank/:id', {
    config: { access: 'banks_manage' },
    schema: { tags: ['banks'], params: bankIdParam, body: updateBankBody, response: { 200: bankChangedResponse, ...errors } },
  }, async (request) => {
    const before = await requireBank(request.params.id);
    const changes = Object.fromEntries(Object.entries(request.body).filter(([, v]) => v !== undefined));
    if (Object.keys(changes).length === 0) throw new AppError(400, 'Send at least one field to change');
    const next = { ...before, ...changes };
    if (await sameAccountExists(database, next, before.bankId)) throw new AppError(409, DUPLICATE);
    const updated = await database.db.transaction(async (tx) => {
      if (changes.isPrimary === true && !before.isPrimary) await clearPrimary(tx, before.userId);
      const [row] = await tx.update(bankAccounts).set(changes).where(eq(bankAccounts.bankId, before.bankId)).returning();
      await audit(tx, request, { action: 'update', entity: 'bank_account', entityId: before.bankId, before, after: row });
      return row;
    });
    return { success: true as const, message: 'Bank account updated successfully', data: toBankAccount(updated) };
  });

  app.delete('/banks/deleteBank/:id', {
    config: { access: 'banks_manage' },
    schema: { tags: ['banks'], params: bankIdParam, response: { 200: bankDeletedResponse, ...errors } },
  }, async (request) => {
    const before = await requireBank(request.params.id);
    await database.db.transaction(async (tx) => {
      await tx.delete(bankAccounts).where(eq(bankAccounts.bankId, before.bankId));
      if (before.isPrimary) await promoteOldest(tx, before.userId);
      await audit(tx, request, { action: 'delete', entity: 'bank_account', entityId: before.bankId, before });
    });
    return { success: true as const, message: 'Bank account deleted successfully' };
  });
}
