import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authApi } from '../../../contract/auth.ts';
import { contextOf } from '../../lib/context.ts';
import { registerEndpoints } from '../../lib/routes.ts';
import { accountRoutes } from './account.routes.ts';
import { withRetryAfter } from './attempts.ts';
import * as auth from './auth.service.ts';
import { logFailedDelivery } from './mail-delivery.ts';

const clientOf = (request: FastifyRequest): auth.Client => ({ userAgent: request.headers['user-agent'] ?? null });

export async function authRoutes(app: FastifyInstance) {
  registerEndpoints(app, authApi, {
    login: async (request, reply) => {
      const data = await withRetryAfter(reply, () => auth.login(contextOf(request), request.body, clientOf(request)));
      return { success: true as const, message: 'Login successful', data };
    },
    register: async (request, reply) => {
      const { token, user, delivery } = await withRetryAfter(reply, () => auth.register(contextOf(request), request.body, clientOf(request)));
      logFailedDelivery(request, delivery, request.body.email, 'email confirmation');
      const message = `Registration successful. We have sent a link to ${user.email}: follow it to confirm your address, then sign in.`;
      return { success: true as const, message, token, user };
    },
    confirmEmail: async (request) => {
      const confirmed = await auth.confirmEmail(contextOf(request), request.body.token);
      return {
        success: true as const,
        message: confirmed === 'email' ? 'Your sign-in email has been changed. Sign in with it from now on.' : 'Your email address is confirmed. You can sign in now.',
      };
    },
    logout: async (request) => {
      await auth.logout(contextOf(request));
      return { success: true as const, message: 'Logged out successfully' };
    },
    me: async (request) => ({ success: true as const, data: auth.toSessionUser(request.auth!) }),
    forgotPassword: async (request, reply) => {
      const { delivery } = await withRetryAfter(reply, () => auth.forgotPassword(contextOf(request), request.body.email));
      logFailedDelivery(request, delivery, request.body.email, 'password reset');
      return { success: true as const, message: 'If an account exists for this email, a password reset link has been sent.' };
    },
    resetPassword: async (request) => {
      const purpose = await auth.resetPassword(contextOf(request), request.body);
      const message = purpose === 'invite' ? 'Your password has been set. You can sign in now.' : 'Your password has been reset. You can sign in now.';
      return { success: true as const, message };
    },
  });

  await app.register(accountRoutes);
}
