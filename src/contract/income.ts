import { z } from 'zod';
import { awaitingApprovalResponse } from './approvals.ts';
import { hasTwoDecimals, rupeeAmount, wireDate } from './common.ts';
import { endpoints } from './endpoint.ts';
import { plainText } from './reports.ts';

/**
 * The income engine (issue 16): membership plans, the compensation settings, activations and
 * runs. Percentages travel as numbers with at most 2 decimals (1.25 = 1.25%) and are stored as
 * basis points; amounts are rupees on the wire, paise in storage; days are dd-mm-yyyy on the wire.
 */

/** A percentage 0–100 with at most 2 decimals. */
export const percent = (name: string) =>
  z.number({ error: `${name} must be a number` })
    .refine((v) => v >= 0 && v <= 100, `${name} must be between 0 and 100`)
    .refine(hasTwoDecimals, `${name} must have at most 2 decimals`);
/** A rupee amount that may be 0 (a setting that is off). */
export const rupeesOrZero = (name: string) =>
  z.number({ error: `${name} must be a number` })
    .refine((v) => v >= 0 && v <= 100_000_000, `${name} must be between 0 and 100000000`)
    .refine(hasTwoDecimals, `${name} must have at most 2 decimals`);

export const percentToBp = (p: number) => Math.round(p * 100);
export const bpToPercent = (bp: number) => bp / 100;

// ---- Membership plans ----

export const DAILY_MODES = [
  { value: 'percent', label: '% of the price per day' },
  { value: 'fixed', label: 'Fixed amount per day' },
] as const;
export const dailyMode = z.enum(['percent', 'fixed'], { error: 'Daily payout type must be percent or fixed' });

/** A plan's terms as the operator sets them (one version). */
export const planTerms = z.object({
  name: z.string({ error: 'Plan name is required' }).trim().min(1, 'Plan name is required')
    .max(80, 'Plan name must be at most 80 characters').refine((v) => !v.includes('\u0000'), 'Text must not contain NUL characters'),
  price: rupeeAmount,
  dailyMode,
  /** percent: % of the price per day; fixed: rupees per day. */
  dailyValue: z.number({ error: 'Daily payout must be a number' }).refine((v) => v > 0, 'Daily payout must be greater than 0')
    .refine(hasTwoDecimals, 'Daily payout must have at most 2 decimals'),
  durationDays: z.number({ error: 'Duration must be a number of days' }).int('Duration must be a whole number of days')
    .min(1, 'Duration must be at least 1 day').max(3650, 'Duration must be at most 3650 days'),
  /** The most a membership of this plan is paid in daily payouts, in all (e.g. 2× the price). */
  cap: rupeeAmount,
  active: z.boolean().default(true),
});

/** Create: the first version is in force from `effectiveFrom` (default: today, India time). */
export const planBody = planTerms.extend({ effectiveFrom: wireDate.optional() })
  .refine((p) => p.dailyMode !== 'percent' || p.dailyValue <= 100, { message: 'Daily payout must be between 0 and 100 %', path: ['dailyValue'] })
  // Issue 24: a cap below the price was accepted without a word; a plan never caps below what it costs.
  .refine((p) => p.cap >= p.price, { message: 'Cap must be at least the price', path: ['cap'] });
export type PlanBody = z.input<typeof planBody>;
/** Change: a new version, in force from `effectiveFrom` (default and earliest: tomorrow, India time). */
export const planChangeBody = planBody;

export const planVersion = z.object({
  versionId: z.number(),
  planId: z.number(),
  effectiveFrom: z.string(), // dd-mm-yyyy
  name: z.string(),
  price: z.number(),
  dailyMode,
  dailyValue: z.number(),
  /** The daily amount in rupees a membership sold on this version earns. */
  dailyAmount: z.number(),
  durationDays: z.number(),
  cap: z.number(),
  active: z.boolean(),
  createdBy: z.number().nullable(),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
});
export type PlanVersion = z.infer<typeof planVersion>;

/** A plan: the version in force today, and the next one already scheduled, if any. */
export const plan = z.object({
  planId: z.number(),
  current: planVersion.nullable(),
  scheduled: planVersion.nullable(),
});
export type Plan = z.infer<typeof plan>;

export const planIdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const plansApi = endpoints('income-plans', {
  list: {
    method: 'GET', path: '/income/plans', access: 'membership_view',
    responses: { 200: z.object({ success: z.literal(true), data: z.array(plan) }) },
  },
  create: {
    method: 'POST', path: '/income/plans', access: 'income_settings', body: planBody,
    /** 202: filed for a second operator (issue 22); 201 is what the approval answers. */
    responses: { 201: z.object({ success: z.literal(true), message: z.string(), data: plan }), 202: awaitingApprovalResponse },
  },
  change: {
    method: 'PUT', path: '/income/plans/:id', access: 'income_settings', params: planIdParams, body: planChangeBody,
    responses: { 200: z.object({ success: z.literal(true), message: z.string(), data: plan }), 202: awaitingApprovalResponse },
  },
  versions: {
    method: 'GET', path: '/income/plans/:id/versions', access: 'membership_view', params: planIdParams,
    responses: { 200: z.object({ success: z.literal(true), data: z.array(planVersion) }) },
  },
  /** Every plan with the terms it shows (in force, else the first scheduled) and its next change, by plan id, streamed. */
  csv: { method: 'GET', path: '/income/plans.csv', access: 'membership_view', file: 'csv', responses: {} },
});

// ---- Compensation settings (versioned) ----

export const LEVELS = 10;
export const PAY_TO = ['wallet', 'bank'] as const;
export const ROYALTY_PERIODS = ['monthly', 'weekly'] as const;
export const MONTHLY_REWARD_MODES = ['off', 'rank', 'target'] as const;

export const incomeSettings = z.object({
  /** Level income: % of the membership price for the upline 1..10 levels up. */
  levelIncome: z.array(percent('Level income')).length(LEVELS, `Level income needs exactly ${LEVELS} levels`)
    .refine((l) => l.reduce((a, b) => a + b, 0) <= 100, 'Level income must add up to at most 100 %'),
  /** true: an inactive upline's share passes up to the next active one; false: it is not paid. */
  compression: z.boolean(),
  tdsPercent: percent('TDS'),
  /**
   * TDS on the payout of a member without a PAN (issue 25, docs/tax.md: section 206AA of the
   * Income-tax Act, 1961); the with-PAN rate is tdsPercent. A version saved before it reads 20.
   */
  tdsWithoutPanPercent: percent('TDS without PAN').default(20),
  adminChargePercent: percent('Admin charge'),
  /** 'bank': a member without a primary bank account gets a Failure row, not a credit. */
  payTo: z.enum(PAY_TO, { error: 'Pay to must be wallet or bank' }),
  /** The daily run's time of day, India time, HH:MM. */
  payoutTime: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Payout time must be HH:MM (24-hour, India time)'),
  /** Business days: Monday to Friday, or every day when true. */
  payOnWeekends: z.boolean(),
  royaltyPoolPercent: percent('Royalty pool'),
  royaltyPeriod: z.enum(ROYALTY_PERIODS, { error: 'Royalty period must be monthly or weekly' }),
  /** referral_bonus_10_users: paid once when a member reaches 10 active direct referrals (0 = off). */
  referralBonus: rupeesOrZero('Referral bonus'),
  monthlyRewardMode: z.enum(MONTHLY_REWARD_MODES, { error: 'Monthly reward must be off, rank or target' }),
  /** monthlyReward by target: the team business (₹ of membership fees in the month) to reach… */
  monthlyRewardTarget: rupeesOrZero('Monthly reward target'),
  /** …and what reaching it pays. */
  monthlyRewardAmount: rupeesOrZero('Monthly reward amount'),
}).refine((s) => s.tdsPercent + s.adminChargePercent <= 100, { message: 'TDS and admin charge must add up to at most 100 %', path: ['adminChargePercent'] })
  .refine((s) => s.tdsWithoutPanPercent + s.adminChargePercent <= 100, {
    message: 'TDS without PAN and admin charge must add up to at most 100 %', path: ['tdsWithoutPanPercent'],
  });
export type IncomeSettings = z.infer<typeof incomeSettings>;

/** What a fresh install runs with until an operator saves settings. */
export const DEFAULT_INCOME_SETTINGS: IncomeSettings = {
  levelIncome: [10, 5, 3, 2, 1, 1, 0.5, 0.5, 0.5, 0.5],
  compression: false,
  tdsPercent: 5,
  tdsWithoutPanPercent: 20,
  adminChargePercent: 5,
  payTo: 'wallet',
  payoutTime: '18:00',
  payOnWeekends: false,
  royaltyPoolPercent: 2,
  royaltyPeriod: 'monthly',
  referralBonus: 500,
  monthlyRewardMode: 'rank',
  monthlyRewardTarget: 0,
  monthlyRewardAmount: 0,
};

export const settingsVersion = z.object({
  versionId: z.number().nullable(), // null: the defaults, never saved
  effectiveFrom: z.string(), // dd-mm-yyyy
  settings: incomeSettings,
  createdBy: z.number().nullable(),
  createdByName: z.string().nullable(),
  createdAt: z.string().nullable(),
});
export type SettingsVersion = z.infer<typeof settingsVersion>;

export const settingsBody = z.object({ settings: incomeSettings, effectiveFrom: wireDate.optional() });
export type SettingsBody = z.input<typeof settingsBody>;

export const incomeSettingsApi = endpoints('income-settings', {
  /** The version in force today, the next scheduled one, and the history (newest first). */
  get: {
    method: 'GET', path: '/income/settings', access: 'membership_view',
    responses: {
      200: z.object({
        success: z.literal(true),
        data: z.object({ current: settingsVersion, scheduled: settingsVersion.nullable(), history: z.array(settingsVersion) }),
      }),
    },
  },
  save: {
    method: 'PUT', path: '/income/settings', access: 'income_settings', body: settingsBody,
    responses: { 200: z.object({ success: z.literal(true), message: z.string(), data: settingsVersion }), 202: awaitingApprovalResponse },
  },
  /** The saved versions (the Saved versions table), newest first, streamed. */
  versionsCsv: { method: 'GET', path: '/income/settings/versions.csv', access: 'membership_view', file: 'csv', responses: {} },
});

// ---- Activation ----

export const PAYMENT_SOURCES = [
  { value: 'wallet', label: 'From the member\u2019s wallet' },
  { value: 'outside', label: 'Paid outside (cash, bank transfer, UPI)' },
] as const;

export const activationBody = z.object({
  userId: z.number({ error: 'Select a member' }).int().positive().max(Number.MAX_SAFE_INTEGER),
  planId: z.number({ error: 'Select a plan' }).int().positive().max(2_147_483_647),
  paidVia: z.enum(['wallet', 'outside'], { error: 'Payment must be wallet or outside' }),
  /** For 'outside': how it was paid (e.g. UPI, cash) and its reference. */
  method: plainText(40).optional(),
  reference: plainText(80).optional(),
}).refine((b) => b.paidVia !== 'outside' || (b.method && b.reference), {
  message: 'A payment made outside needs its method and reference', path: ['reference'],
});
export type ActivationBody = z.input<typeof activationBody>;

/** A member's membership as the engine keeps it. */
export const membershipDetail = z.object({
  membershipId: z.number(),
  userId: z.number(),
  planId: z.number().nullable(),
  planName: z.string().nullable(),
  planVersionId: z.number().nullable(),
  price: z.number(),
  dailyAmount: z.number(),
  durationDays: z.number(),
  cap: z.number(),
  earned: z.number(),
  daysEarned: z.number(),
  status: z.enum(['active', 'completed', 'legacy']),
  startsOn: z.string().nullable(), // dd-mm-yyyy
  paidVia: z.enum(['wallet', 'outside']).nullable(),
  paymentMethod: z.string().nullable(),
  paymentReference: z.string().nullable(),
  activatedAt: z.string(),
});
export type MembershipDetail = z.infer<typeof membershipDetail>;

export const levelIncomeLine = z.object({ level: z.number(), userId: z.number(), amount: z.number() });

export const activationResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ membership: membershipDetail, levelIncome: z.array(levelIncomeLine), balance: z.number() }),
});

export const memberIdParams = z.object({ userId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

export const activationApi = endpoints('income-activation', {
  activate: {
    method: 'POST', path: '/income/memberships', access: 'membership_manage', body: activationBody,
    responses: { 201: activationResponse, 202: awaitingApprovalResponse },
  },
  get: {
    method: 'GET', path: '/income/memberships/:userId', access: 'membership_view', params: memberIdParams,
    responses: { 200: z.object({ success: z.literal(true), data: membershipDetail.nullable() }) },
  },
});
