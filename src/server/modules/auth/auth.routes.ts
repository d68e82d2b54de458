import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authApi } from '../../../contract/auth.ts';
import { contextOf } from '../../lib/context.ts';
import { registerEndpoints } from '../../lib/routes.ts';
import { accountRoutes } from './account.routes.ts';
import * as auth from './auth.service.ts';

const clientOf = (request: FastifyRequest): auth.Client => ({ userAgent: request.headers['user-agent'] ?? null });

export async function authRoutes(app: FastifyInstance) {
  registerEndpoints(app, authApi, {
    login: async (request) => {
      const data = await auth.login(contextOf(request), request.body, clientOf(request));
      return { success: true as const, message: 'Login successful', data };
    },
    register: async (request) => {
      const session = await auth.register(contextOf(request), request.body, clientOf(request));
      return { success: true as const, message: 'Registration successful', ...session };
    },
    logout: async (request) => {
      await auth.logout(contextOf(request));
      return { success: true as const, message: 'Logged out successfully' };
    },
    me: async (request) => ({ success: true as const, data: auth.toSessionUser(request.auth!) }),
    forgotPassword: async (request) => {
      const { delivery } = await auth.forgotPassword(contextOf(request), request.body.email);
      delivery?.catch((error: unknown) => {
        request.log.error({ to: request.body.email, reason: error instanceof Error ? error.message : String(error) }, 'the password reset mail could not be sent');
      });
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
