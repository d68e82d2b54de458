import { sql } from 'drizzle-orm';
import {
  bigint, boolean, check, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex,
} from 'drizzle-orm/pg-core';
import { nameKey } from './catalogue.ts';
import { users } from './members.ts';

/**
 * The income engine (issue 16, docs/decisions.md "The income engine"). Percentages are stored as
 * basis points (1% = 100 bp), money as paise. What a membership was sold with (price, daily
 * amount, duration, cap) is copied onto the membership at activation: a plan change never
 * rewrites a membership already sold.
 */

/** A membership plan (the product an operator sells). Its terms live in versions. */
export const membershipPlans = pgTable(
  'membership_plans',
  {
    planId: integer('plan_id').primaryKey().generatedByDefaultAsIdentity(),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('membership_plans_name_uq').on(nameKey(t.name))],
);

/**
 * One version of a plan's terms, in force from `effective_from` (a business day in Asia/Kolkata)
 * until the next version's. A change applies from the next day at the earliest; the version in
 * force on the activation day is the one a membership is sold with.
 */
export const membershipPlanVersions = pgTable(
  'membership_plan_versions',
  {
    versionId: integer('version_id').primaryKey().generatedByDefaultAsIdentity(),
    planId: integer('plan_id').notNull().references(() => membershipPlans.planId),
    effectiveFrom: date('effective_from').notNull(),
    pricePaise: bigint('price_paise', { mode: 'number' }).notNull(),
    /** 'percent': daily_value is basis points of the price; 'fixed': daily_value is paise per day. */
    dailyMode: text('daily_mode').$type<'percent' | 'fixed'>().notNull(),
    dailyValue: bigint('daily_value', { mode: 'number' }).notNull(),
    durationDays: integer('duration_days').notNull(),
    /** The most a membership of this plan is ever paid in daily payouts, in all. */
    capPaise: bigint('cap_paise', { mode: 'number' }).notNull(),
    active: boolean('active').notNull().default(true),
    createdBy: bigint('created_by', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('membership_plan_versions_plan_from_uq').on(t.planId, t.effectiveFrom),
    check('membership_plan_versions_price_positive', sql`${t.pricePaise} > 0`),
    check('membership_plan_versions_daily_positive', sql`${t.dailyValue} > 0`),
    check('membership_plan_versions_duration_positive', sql`${t.durationDays} > 0`),
    check('membership_plan_versions_cap_positive', sql`${t.capPaise} > 0`),
    check('membership_plan_versions_mode', sql`${t.dailyMode} in ('percent', 'fixed')`),
  ],
);

/**
 * The compensation settings (level income, deductions, payout schedule, royalty pool, rewards),
 * one row per version, in force from `effective_from`. `settings` is the contract's
 * `incomeSettings` shape (src/contract/income.ts), checked by it on every write and read.
 */
export const incomeSettingsVersions = pgTable(
  'income_settings_versions',
  {
    versionId: integer('version_id').primaryKey().generatedByDefaultAsIdentity(),
    effectiveFrom: date('effective_from').notNull().unique(),
    settings: jsonb('settings').notNull(),
    createdBy: bigint('created_by', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
);

/**
 * One run of the engine: a kind and a period, exactly once (the unique index; a reversed run
 * frees its period for a corrected run). Work is done in chunks, each its own transaction that
 * also moves its slice's cursor and the totals, so a crash leaves whole chunks and the run resumes
 * after the last one. A run is one slice of units, or (a kind that can split, on PostgreSQL) two
 * slices by id worked side by side. `state` holds what the run fixed at its start (the royalty pool, the weights' sum),
 * `settings` the settings version and plan terms it used.
 */
export const incomeRuns = pgTable(
  'income_runs',
  {
    runId: bigint('run_id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    kind: text('kind').notNull(),
    periodStart: date('period_start').notNull(),
    periodEnd: date('period_end').notNull(),
    /** running → completed | failed; completed → reversing → reversed. */
    status: text('status').notNull().default('running'),
    /** Units (memberships, members) done and in all, for the progress bar. */
    done: bigint('done', { mode: 'number' }).notNull().default(0),
    total: bigint('total', { mode: 'number' }).notNull().default(0),
    /** Per slice, the last unit done (its id; the next chunk starts after it), -1 once the slice is done. */
    cursors: bigint('cursors', { mode: 'number' }).array().notNull().default(sql`'{0}'::int8[]`),
    /** Per slice but the last, its last unit id: slice i covers ids in (slice_ends[i-1], slice_ends[i]]. */
    sliceEnds: bigint('slice_ends', { mode: 'number' }).array().notNull().default(sql`'{}'::int8[]`),
    /** Members credited, Failure rows written. */
    paid: bigint('paid', { mode: 'number' }).notNull().default(0),
    failed: bigint('failed', { mode: 'number' }).notNull().default(0),
    /** Gross credited, deductions (TDS + admin charge), net (gross − deductions), Failure rows' net. */
    grossPaise: bigint('gross_paise', { mode: 'number' }).notNull().default(0),
    deductionsPaise: bigint('deductions_paise', { mode: 'number' }).notNull().default(0),
    /** Of the deductions, the TDS (issue 24: the admin charge is deductions − TDS). */
    tdsPaise: bigint('tds_paise', { mode: 'number' }).notNull().default(0),
    failedPaise: bigint('failed_paise', { mode: 'number' }).notNull().default(0),
    state: jsonb('state').notNull().default({}),
    settings: jsonb('settings').notNull().default({}),
    settingsVersionId: integer('settings_version_id'),
    /** The royalty or reward batch the run's credits belong to (the income screens read batches). */
    batchId: integer('batch_id'),
    error: text('error'),
    /** Null when the schedule started it. */
    startedBy: bigint('started_by', { mode: 'number' }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    reversedBy: bigint('reversed_by', { mode: 'number' }),
    reversedAt: timestamp('reversed_at', { withTimezone: true }),
    /** What a reversal could not take back because the member's balance no longer covered it. */
    shortfallPaise: bigint('shortfall_paise', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    uniqueIndex('income_runs_once_uq').on(t.kind, t.periodStart).where(sql`${t.status} <> 'reversed'`),
    index('income_runs_started_idx').on(t.startedAt, t.runId),
    index('income_runs_kind_period_idx').on(t.kind, t.periodStart, t.runId),
    // The runs still moving money: /metrics reads them at every scrape, resumeRuns at every tick (issue 23).
    index('income_runs_in_progress_idx').on(t.runId).where(sql`${t.status} in ('running', 'reversing')`),
    check('income_runs_status', sql`${t.status} in ('running', 'completed', 'failed', 'reversing', 'reversed')`),
  ],
);

/** One-time rewards already granted (referral_bonus_10_users is paid once per member, ever). */
export const rewardGrants = pgTable(
  'reward_grants',
  {
    userId: bigint('user_id', { mode: 'number' }).notNull().references(() => users.userId),
    rewardType: text('reward_type').notNull(),
    runId: bigint('run_id', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.rewardType] }), index('reward_grants_run_idx').on(t.runId)],
);

/** Per member, what a reversal could not take back (the documented rule: never a negative balance). */
export const runShortfalls = pgTable(
  'run_shortfalls',
  {
    runId: bigint('run_id', { mode: 'number' }).notNull(),
    userId: bigint('user_id', { mode: 'number' }).notNull().references(() => users.userId),
    shortfallPaise: bigint('shortfall_paise', { mode: 'number' }).notNull(),
    /** How much of it the member's later credits have settled (issue 22, recovery). */
    recoveredPaise: bigint('recovered_paise', { mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.userId] })],
);

/** Rank promotions a run made (never a demotion): who, from which rank to which. */
export const rankPromotions = pgTable(
  'rank_promotions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    runId: bigint('run_id', { mode: 'number' }).notNull(),
    userId: bigint('user_id', { mode: 'number' }).notNull().references(() => users.userId),
    fromRankId: integer('from_rank_id'),
    toRankId: integer('to_rank_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('rank_promotions_run_idx').on(t.runId, t.userId), index('rank_promotions_user_idx').on(t.userId)],
);
