import type { FastifyInstance } from 'fastify';
import { accountApi } from '../../../contract/account.ts';
import { contextOf } from '../../lib/context.ts';
import { registerEndpoints } from '../../lib/routes.ts';
import * as account from './account.service.ts';
import { withRetryAfter } from './attempts.ts';
import { logFailedDelivery } from './mail-delivery.ts';

/** The signed-in account's own security (any account): two-factor sign-in and its sessions. */
export async function accountRoutes(app: FastifyInstance) {
  registerEndpoints(app, accountApi, {
    twoFactorStatus: async (request) => ({ success: true as const, data: await account.twoFactorStatus(contextOf(request)) }),
    setUpTwoFactor: async (request) => ({ success: true as const, data: await account.setUpTwoFactor(contextOf(request)) }),
    confirmTwoFactor: async (request, reply) => {
      const recoveryCodes = await withRetryAfter(reply, () => account.confirmTwoFactor(contextOf(request), request.body.code));
      return { success: true as const, message: 'Two-factor sign-in is on', data: { recoveryCodes } };
    },
    turnOffTwoFactor: async (request, reply) => {
      await withRetryAfter(reply, () => account.turnOffTwoFactor(contextOf(request), request.body.code));
      return { success: true as const, message: 'Two-factor sign-in is off' };
    },
    changeEmail: async (request, reply) => {
      const { delivery } = await withRetryAfter(reply, () => account.changeOwnEmail(contextOf(request), request.body));
      logFailedDelivery(request, delivery, request.body.email, 'email change');
      return {
        success: true as const,
        message: `We have mailed a link to ${request.body.email}: your sign-in email changes when you follow it (within 72 hours)`,
      };
    },
    changePassword: async (request, reply) => {
      await withRetryAfter(reply, () => account.changeOwnPassword(contextOf(request), request.body));
      return { success: true as const, message: 'Your password has been changed. Your other sessions have been signed out.' };
    },
    sessions: async (request) => ({ success: true as const, data: await account.listSessions(contextOf(request)) }),
    endSession: async (request) => {
      await account.endSession(contextOf(request), request.params.id);
      return { success: true as const, message: 'Session signed out' };
    },
  });
}
