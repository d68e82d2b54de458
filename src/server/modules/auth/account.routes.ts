import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  accountSessionsResponse, changeEmailBody, sessionIdParams, twoFactorCodeBody, twoFactorConfirmBody, twoFactorConfirmResponse,
  twoFactorSetupResponse, twoFactorStatusResponse,
} from '../../../contract/account.ts';
import { okResponse } from '../../../contract/auth.ts';
import { errorResponse } from '../../../contract/common.ts';
import * as account from './account.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse, 429: errorResponse };

/** The signed-in account's own security (any account): two-factor sign-in and its sessions. */
export async function accountRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // A session that must enrol may use exactly these three, and /users/me and /users/logout.
  const enrolment = { access: 'session', duringEnrolment: true } as const;

  app.get('/account/two-factor', {
    config: enrolment,
    schema: { tags: ['account'], response: { 200: twoFactorStatusResponse, ...errors } },
  }, async (request) => ({ success: true as const, data: await account.twoFactorStatus(app, request) }));

  app.post('/account/two-factor/setup', {
    config: enrolment,
    schema: { tags: ['account'], response: { 200: twoFactorSetupResponse, ...errors } },
  }, async (request) => ({ success: true as const, data: await account.setUpTwoFactor(app, request) }));

  app.post('/account/two-factor/confirm', {
    config: enrolment,
    schema: { tags: ['account'], body: twoFactorConfirmBody, response: { 200: twoFactorConfirmResponse, ...errors } },
  }, async (request) => {
    const recoveryCodes = await account.confirmTwoFactor(app, request, request.body.code);
    return { success: true as const, message: 'Two-factor sign-in is on', data: { recoveryCodes } };
  });

  app.delete('/account/two-factor', {
    config: { access: 'session' },
    schema: { tags: ['account'], body: twoFactorCodeBody, response: { 200: okResponse, ...errors } },
  }, async (request) => {
    await account.turnOffTwoFactor(app, request, request.body.code);
    return { success: true as const, message: 'Two-factor sign-in is off' };
  });

  app.put('/account/email', {
    config: { access: 'session' },
    schema: { tags: ['account'], body: changeEmailBody, response: { 200: okResponse, ...errors } },
  }, async (request) => {
    await account.changeOwnEmail(app, request, request.body.email, request.body.password);
    return { success: true as const, message: 'Your sign-in email has been changed' };
  });

  app.get('/account/sessions', {
    config: { access: 'session' },
    schema: { tags: ['account'], response: { 200: accountSessionsResponse, ...errors } },
  }, async (request) => ({ success: true as const, data: await account.listSessions(app, request) }));

  app.delete('/account/sessions/:id', {
    config: { access: 'session' },
    schema: { tags: ['account'], params: sessionIdParams, response: { 200: okResponse, ...errors } },
  }, async (request) => {
    await account.endSession(app, request, request.params.id);
    return { success: true as const, message: 'Session signed out' };
  });
}
