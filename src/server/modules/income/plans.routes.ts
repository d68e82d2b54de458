import type { FastifyInstance } from 'fastify';
import { incomeSettingsApi, plansApi } from '../../../contract/income.ts';
import type { PlanVersion } from '../../../contract/income.ts';
import { contextOf } from '../../lib/context.ts';
import { sendCsv } from '../../lib/csv.ts';
import { idempotent } from '../../lib/idempotency.ts';
import { registerEndpoints } from '../../lib/routes.ts';
import { moneyContext } from '../../lib/money/movement.ts';
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
    // Plans and settings versions are short lists that their list endpoints read whole: one batch.
    csv: async (request, reply) => {
      const ctx = contextOf(request);
      return sendCsv<never>(
        reply,
        'plans.csv',
        ['Plan ID', 'Name', 'Price (INR)', 'Daily payout', 'Daily payout (INR)', 'Duration (days)', 'Cap (INR)', 'Status', 'In force from',
          'Scheduled change from', 'Scheduled price (INR)', 'Scheduled daily payout (INR)', 'Scheduled duration (days)', 'Scheduled cap (INR)'],
        async () => ({
          rows: (await plans.listPlans(ctx)).map((p) => {
            const v = (p.current ?? p.scheduled) as PlanVersion;
            const next = p.current ? p.scheduled : null;
            return [
              p.planId, v.name, v.price.toFixed(2), v.dailyMode === 'percent' ? `${v.dailyValue} %` : 'Fixed', v.dailyAmount.toFixed(2),
              v.durationDays, v.cap.toFixed(2), v.active ? 'Active' : 'Inactive', p.current ? p.current.effectiveFrom : null,
              next?.effectiveFrom ?? (p.current ? null : v.effectiveFrom), next?.price.toFixed(2) ?? null, next?.dailyAmount.toFixed(2) ?? null,
              next?.durationDays ?? null, next?.cap.toFixed(2) ?? null,
            ];
          }),
          cursor: null,
        }),
      );
    },
  });

  registerEndpoints(app, incomeSettingsApi, {
    get: async (request) => ({ success: true as const, data: await settings.getSettings(contextOf(request)) }),
    save: async (request, reply) => {
      const ctx = contextOf(request);
      return idempotent(ctx, request, reply, (tx) => settings.saveSettings(tx, moneyContext(ctx), ctx.config.bounds, request.body));
    },
    versionsCsv: async (request, reply) => {
      const ctx = contextOf(request);
      return sendCsv<never>(
        reply,
        'income-settings-versions.csv',
        ['Version ID', 'Effective from', 'Status', 'Level income (%)', 'Compression', 'TDS (%)', 'TDS without PAN (%)', 'Admin charge (%)', 'Pay to',
          'Payout time (IST)', 'Pay on weekends', 'Royalty pool (%)', 'Royalty period', 'Referral bonus (INR)', 'Monthly reward',
          'Monthly reward target (INR)', 'Monthly reward amount (INR)', 'Saved by', 'Saved at'],
        async () => ({
          rows: (await settings.settingsVersionsForCsv(ctx)).map(({ settings: s, ...v }) => [
            v.versionId, v.effectiveFrom, v.state, s.levelIncome.join(' '), s.compression ? 'On' : 'Off', s.tdsPercent, s.tdsWithoutPanPercent,
            s.adminChargePercent, s.payTo, s.payoutTime, s.payOnWeekends ? 'Yes' : 'No', s.royaltyPoolPercent, s.royaltyPeriod,
            s.referralBonus.toFixed(2), s.monthlyRewardMode, s.monthlyRewardTarget.toFixed(2), s.monthlyRewardAmount.toFixed(2),
            v.createdByName, v.createdAt,
          ]),
          cursor: null,
        }),
      );
    },
  });
}
