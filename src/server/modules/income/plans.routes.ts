import type { FastifyInstance } from 'fastify';
import { incomeSettingsApi, plansApi } from '../../../contract/income.ts';
import { contextOf } from '../../lib/context.ts';
import { registerEndpoints } from '../../lib/routes.ts';
import * as plans from './plans.service.ts';
import * as settings from './settings.service.ts';

/** Membership plans and the compensation settings (issue 16): both versioned by effective_from. */
export async function plansRoutes(app: FastifyInstance) {
  registerEndpoints(app, plansApi, {
    list: async (request) => ({ success: true as const, data: await plans.listPlans(contextOf(request)) }),
    create: async (request) => {
      const { plan, message } = await plans.createPlan(contextOf(request), request.body);
      return { success: true as const, message, data: plan };
    },
    change: async (request) => {
      const { plan, message } = await plans.changePlan(contextOf(request), request.params.id, request.body);
      return { success: true as const, message, data: plan };
    },
    versions: async (request) => ({ success: true as const, data: await plans.planVersions(contextOf(request), request.params.id) }),
  });

  registerEndpoints(app, incomeSettingsApi, {
    get: async (request) => ({ success: true as const, data: await settings.getSettings(contextOf(request)) }),
    save: async (request) => {
      const { version, message } = await settings.saveSettings(contextOf(request), request.body);
      return { success: true as const, message, data: version };
    },
  });
}
