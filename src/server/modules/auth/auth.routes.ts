import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  forgotPasswordBody, loginBody, loginErrorResponse, loginResponse, meResponse, okResponse, registerBody, registerResponse,
  resetPasswordBody,
} from '../../../contract/auth.ts';
import { errorResponse } from '../../../contract/common.ts';
import { accountRoutes } from './account.routes.ts';
import * as auth from './auth.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 409: errorResponse, 429: errorResponse };

export async function authRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post('/Adminlogin', {
    config: { access: 'public' },
    schema: { tags: ['auth'], body: loginBody, response: { 200: loginResponse, ...errors, 401: loginErrorResponse } },
  }, async (request) => {
    const data = await auth.login(app, request, request.body);
    return { success: true as const, message: 'Login successful', data };
  });

  app.post('/register', {
    config: { access: 'public' },
    schema: { tags: ['auth'], body: registerBody, response: { 201: registerResponse, ...errors } },
  }, async (request, reply) => {
    const session = await auth.register(app, request, request.body);
    return reply.code(201).send({ success: true as const, message: 'Registration successful', ...session });
  });

  app.post('/users/logout', {
    config: { access: 'session', duringEnrolment: true },
    schema: { tags: ['auth'], response: { 200: okResponse, 401: errorResponse } },
  }, async (request) => {
    await auth.logout(app, request);
    return { success: true as const, message: 'Logged out successfully' };
  });

  app.get('/users/me', {
    config: { access: 'session', duringEnrolment: true },
    schema: { tags: ['auth'], response: { 200: meResponse, 401: errorResponse } },
  }, async (request) => ({ success: true as const, data: auth.toSessionUser(request.auth!) }));

  app.post('/users/forgot-password', {
    config: { access: 'public' },
    schema: { tags: ['auth'], body: forgotPasswordBody, response: { 200: okResponse, 400: errorResponse, 429: errorResponse } },
  }, async (request) => {
    await auth.forgotPassword(app, request, request.body.email);
    return { success: true as const, message: 'If an account exists for this email, a password reset link has been sent.' };
  });

  app.post('/users/reset-password', {
    config: { access: 'public' },
    schema: { tags: ['auth'], body: resetPasswordBody, response: { 200: okResponse, 400: errorResponse } },
  }, async (request) => {
    const purpose = await auth.resetPassword(app, request, request.body.token, request.body.newPassword);
    const message = purpose === 'invite' ? 'Your password has been set. You can sign in now.' : 'Your password has been reset. You can sign in now.';
    return { success: true as const, message };
  });

  await app.register(accountRoutes);
}
