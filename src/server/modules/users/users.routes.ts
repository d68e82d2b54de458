import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../contract/common.ts';
import {
  createdUserResponse, createUserBody, idParam, messageResponse, updatedUserResponse, updateUserBody, userIdParam,
  userResponse, usersByRankQuery, usersPage, usersQuery,
} from '../../../contract/users.ts';
import { AppError } from '../../plugins/errors.ts';
import { listUsers, rankExists } from './users.repository.ts';
import { deleteMember, refuseRoleInMemberBody, registerMember, requireUser, updateMember } from './users.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };

export async function usersRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/users/getAllusers', {
    config: { access: 'users_view' },
    schema: { tags: ['users'], querystring: usersQuery, response: { 200: usersPage, ...errors } },
  }, async (request) => {
    const q = request.query;
    const { users, total } = await listUsers(app.database, q);
    return { success: true as const, users, total, page: q.page, limit: q.limit };
  });

  app.get('/users/getUsersByRank', {
    config: { access: 'users_view' },
    schema: { tags: ['users'], querystring: usersByRankQuery, response: { 200: usersPage, ...errors } },
  }, async (request) => {
    const q = request.query;
    if (!(await rankExists(app.database, q.rankId))) throw new AppError(404, 'Rank not found');
    const { users, total } = await listUsers(app.database, { ...q, sort: '-userId' });
    return { success: true as const, users, total, page: q.page, limit: q.limit };
  });

  app.get('/users/updateByUserId/:id', {
    config: { access: 'users_view' },
    schema: { tags: ['users'], params: idParam, response: { 200: userResponse, ...errors } },
  }, async (request) => ({ success: true as const, user: await requireUser(app, request.params.id) }));

  app.put('/users/updateByUserId/:id', {
    config: { access: 'users_edit' },
    preValidation: refuseRoleInMemberBody,
    schema: { tags: ['users'], params: idParam, body: updateUserBody, response: { 200: updatedUserResponse, ...errors } },
  }, async (request) => {
    const updatedUser = await updateMember(app, request, request.params.id, request.body);
    return { success: true as const, message: 'User updated successfully', updatedUser };
  });

  app.post('/users/register', {
    config: { access: 'users_create' },
    schema: { tags: ['users'], body: createUserBody, response: { 201: createdUserResponse, ...errors } },
  }, async (request, reply) => {
    const user = await registerMember(app, request, request.body);
    return reply.code(201).send({ success: true as const, message: 'User created successfully', user });
  });

  app.delete('/users/deleteByUserId/:userId', {
    config: { access: 'users_delete' },
    schema: { tags: ['users'], params: userIdParam, response: { 200: messageResponse, ...errors } },
  }, async (request) => {
    await deleteMember(app, request, request.params.userId);
    return { success: true as const, message: 'User deleted successfully' };
  });
}
