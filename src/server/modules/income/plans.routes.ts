import type { FastifyInstance } from 'fastify';
import { incomeSettingsApi, plansApi } from '../../../contract/income.ts';
import { contextOf } from '../../lib/context.ts';
import { idempotent } from '../../lib/idempotency.ts';
import { registerEndpoints } from '../../lib/routes.ts';
import { moneyContext } from '../approvals/four-eyes.ts';
import * as plans from './plans.service.ts';
import * as settings from './settings.service.ts';

/** Membership plans and the compensation settings (issue 16): both versioned by effective_from, both under four eyes (issue 22). */
export async function plansRoutes(app: FastifyInstance) {
  registerEndpoints(app, plansApi, {
    list: async (request) => ({ success: true as const, data: await plans.listPlans(contextOf(request)) }),
    // A plan and its versions are levers that make money (issue 22): filed for a second operator.
    create: async (request, reply) => {
      const ctx = contextOf(request);
      return idempotent(ctx, request, reply, (tx) => plans.createPlan(tx, moneyContext(ctx), ctx.config.bounds, request.body));
    },
    change: async (request, reply) => {
      const ctx = contextOf(request);
      return idempotent(ctx, request, reply, (tx) => plans.changePlan(tx, moneyContext(ctx), ctx.config.bounds, request.params.id, request.body));
    },
    versions: async (request) => ({ success: true as const, data: await plans.planVersions(contextOf(request), request.params.id) }),
  });

  registerEndpoints(app, incomeSettingsApi, {
    get: async (request) => ({ success: true as const, data: await settings.getSettings(contextOf(request)) }),
    save: async (request, reply) => {
      const ctx = contextOf(request);
      return idempotent(ctx, request, reply, (tx) => settings.saveSettings(tx, moneyContext(ctx), ctx.config.bounds, request.body));
    },
  });
}
