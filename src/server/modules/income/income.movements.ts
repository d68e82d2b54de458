import { z } from 'zod';
import { activationApi, activationBody, incomeSettingsApi, planBody, plansApi, settingsBody } from '../../../contract/income.ts';
import { isoToWireDate } from '../../../contract/common.ts';
import type { Db } from '../../db/client.ts';
import { defineMovement } from '../../lib/money/movement.ts';
import { activateMembership } from './activation.service.ts';
import { changePlan, createPlan } from './plans.service.ts';
import { saveSettings } from './settings.service.ts';
import { istToday, settingsVersions } from './settings.ts';

/**
 * Income's movements (docs/structure.md, "A money movement"): a membership paid outside the
 * wallet, and the compensation changes (a new plan, a plan change, the income settings). The run
 * reversal and re-run are in runs/runs.movements.ts.
 */

export const membershipActivation = defineMovement({
  kind: 'membership_activation',
  permission: activationApi.activate.access,
  input: activationBody,
  fourEyes: {
    holds: 'threshold',
    rule: 'Paid outside the wallet, waits when the plan\u2019s cap (the most its payouts can come to) is above the approval threshold; no daily limit (the fee is revenue)',
  },
  execute: (tx, money, body) => activateMembership(tx, money, body),
});

/**
 * A compensation change filed for a day that has come can no longer be approved (issue 22): a
 * scheduled version not approved before its day never starts. `mayStartToday`: whether it may
 * still be approved on its first day (a new plan may; the very first settings save may).
 */
async function dayHasCome(tx: Db, payload: unknown, mayStartToday: (tx: Db) => Promise<boolean>): Promise<string | null> {
  const from = (payload as { effectiveFrom?: unknown } | null)?.effectiveFrom;
  if (typeof from !== 'string') return null;
  const today = await istToday(tx);
  if (from < today || (from === today && !(await mayStartToday(tx)))) {
    return `it was to take effect on ${isoToWireDate(from)} and was not approved before that day`;
  }
  return null;
}

const lever = 'Always waits for a second operator with money_approve (a lever that makes money at scale; shown with its projected cost); one not approved before its day never starts';

export const planCreate = defineMovement({
  kind: 'plan_create',
  permission: plansApi.create.access,
  input: z.object({ body: planBody }),
  fourEyes: { holds: 'always', rule: lever },
  expiry: (tx, payload) => dayHasCome(tx, payload, async () => true),
  execute: (tx, money, { body }, checker) => createPlan(tx, money, checker.config.bounds, body),
});

export const planChange = defineMovement({
  kind: 'plan_change',
  permission: plansApi.change.access,
  input: z.object({ planId: z.coerce.number(), body: planBody }),
  fourEyes: { holds: 'always', rule: lever },
  expiry: (tx, payload) => dayHasCome(tx, payload, async () => false),
  execute: (tx, money, { planId, body }, checker) => changePlan(tx, money, checker.config.bounds, planId, body),
});

export const settingsChange = defineMovement({
  kind: 'settings_change',
  permission: incomeSettingsApi.save.access,
  input: z.object({ body: settingsBody }),
  fourEyes: { holds: 'always', rule: lever },
  expiry: (tx, payload) => dayHasCome(tx, payload, async (db) => (await settingsVersions(db)).length === 0),
  execute: (tx, money, { body }, checker) => saveSettings(tx, money, checker.config.bounds, body),
});
