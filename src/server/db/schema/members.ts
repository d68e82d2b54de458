import { sql } from 'drizzle-orm';
import {
  bigint, boolean, check, date, index, integer, pgTable, text, timestamp, uniqueIndex, type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { roles } from './access.ts';
import { ranks } from './catalogue.ts';

/**
 * Members and sign-in accounts are one table (decisions.md). Members added by an operator have no
 * password. `balance_paise` caches the sum of the member's ledger rows, updated in the same
 * transaction as each ledger row, and can never go negative.
 *
 * Triggers that read its columns (drizzle/functions/; change a rollup there, not here):
 * - stat_counters.sql (users_counters_insert/_update/_delete): status, deleted_at, can_sign_in, user_id;
 * - user_segments.sql (user_segments_insert/_update/_delete): level, rank_id, deleted_at, can_sign_in;
 * - downline_counts.sql (downline_counts_insert/_update/_delete): user_id, referred_by, deleted_at, can_sign_in;
 * - search_counts.sql (search_counts_insert/_update/_delete): full_name, email, phone, level,
 *   rank_id, deleted_at, can_sign_in, user_id.
 * Staff (can_sign_in) are not members: those counts leave them out (issue 24).
 * Renaming or retyping one of these columns means editing those files too.
 */
export const users = pgTable(
  'users',
  {
    userId: bigint('user_id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity({ startWith: 100001 }),
    username: text('username'),
    fullName: text('full_name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull(),
    address: text('address'),
    companyName: text('company_name'),
    dob: date('dob'),
    whatsapp: text('whatsapp'),
    image: text('image'),
    state: text('state'),
    referralCode: text('referral_code').notNull(),
    referredBy: bigint('referred_by', { mode: 'number' }).references((): AnyPgColumn => users.userId),
    level: integer('level').notNull().default(1),
    rankId: integer('rank_id').references(() => ranks.rankId),
    roleId: integer('role_id').references(() => roles.roleId),
    status: boolean('status').notNull().default(true),
    passwordHash: text('password_hash'),
    /**
     * Staff: an account that signs in to the panel (invited on the Staff screen, the bootstrap
     * administrator, or self-registered). Member routes never change such an account.
     */
    canSignIn: boolean('can_sign_in').notNull().default(false),
    lastLogin: timestamp('last_login', { withTimezone: true }),
    balancePaise: bigint('balance_paise', { mode: 'number' }).notNull().default(0),
    /**
     * What the member owes the platform (issue 22): the shortfalls of reversed runs that their
     * balance no longer covered. Their next credits settle it first (drizzle/functions/recovery.sql).
     */
    recoveryPaise: bigint('recovery_paise', { mode: 'number' }).notNull().default(0),
    /**
     * A self-registered account whose email link has not been followed yet (issue 22): it cannot
     * sign in, and a staff invitation for the same address takes it over.
     */
    unconfirmed: boolean('unconfirmed').notNull().default(false),
    /**
     * The member's PAN (issue 25, drizzle/0032, docs/tax.md): AAAAA9999A, checked by users_pan_format;
     * null: none given, TDS at the no-PAN rate. Changed only through an approved pan_change request.
     */
    pan: text('pan'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    check('users_balance_not_negative', sql`${t.balancePaise} >= 0`),
    check('users_recovery_not_negative', sql`${t.recoveryPaise} >= 0`),
    // The few members who owe a recovery: the settlement trigger joins a chunk's credits to them.
    index('users_recovery_idx').on(t.userId).where(sql`${t.recoveryPaise} > 0`),
    check('users_level_range', sql`${t.level} >= 0`),
    uniqueIndex('users_email_live_uq').on(t.email).where(sql`${t.deletedAt} is null`),
    uniqueIndex('users_phone_live_uq').on(t.phone).where(sql`${t.deletedAt} is null`),
    uniqueIndex('users_username_uq').on(t.username),
    uniqueIndex('users_referral_code_uq').on(t.referralCode),
    // Direct referrals in id order (downline pages, the genealogy's children) without a sort.
    index('users_referred_by_idx').on(t.referredBy, t.userId),
    index('users_level_idx').on(t.level, t.userId),
    index('users_rank_idx').on(t.rankId, t.userId),
    index('users_role_idx').on(t.roleId),
    // The Staff screen: a few dozen accounts among a million members.
    index('users_staff_idx').on(t.userId).where(sql`${t.canSignIn} and ${t.deletedAt} is null`),
    index('users_created_at_idx').on(t.createdAt),
    // The users list's orders (issue 15): each column with the user id tie-break, live members only
    // (never staff, issue 24: the list's own condition, so the email/status/created orders stay
    // index-only scans; drizzle/0028).
    index('users_name_sort_idx').on(sql`lower(${t.fullName})`, t.userId).where(sql`${t.deletedAt} is null and not ${t.canSignIn}`),
    index('users_email_sort_idx').on(t.email, t.userId).where(sql`${t.deletedAt} is null and not ${t.canSignIn}`),
    index('users_status_sort_idx').on(t.status, t.userId).where(sql`${t.deletedAt} is null and not ${t.canSignIn}`),
    index('users_created_sort_idx').on(t.createdAt, t.userId).where(sql`${t.deletedAt} is null and not ${t.canSignIn}`),
    // Member search (name, email, phone, user id) at a million rows; drizzle/0012 adds
    // users_search_cover_idx (user_id) INCLUDE (full_name, email, phone), which has no builder here.
    index('users_full_name_trgm_idx').using('gin', sql`lower(${t.fullName}) gin_trgm_ops`),
    index('users_email_prefix_idx').using('btree', sql`${t.email} text_pattern_ops`),
    index('users_phone_prefix_idx').using('btree', sql`${t.phone} text_pattern_ops`),
  ],
);

export const bankAccounts = pgTable(
  'bank_accounts',
  {
    bankId: integer('bank_id').primaryKey().generatedByDefaultAsIdentity(),
    userId: bigint('user_id', { mode: 'number' }).notNull().references(() => users.userId),
    accountHolderName: text('account_holder_name').notNull(),
    accountNumber: text('account_number').notNull(),
    ifsc: text('ifsc').notNull(),
    bank: text('bank').notNull(),
    branch: text('branch'),
    isPrimary: boolean('is_primary').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('bank_accounts_user_idx').on(t.userId),
    // No member holds the same account (number at a branch) twice, even when added at the same moment.
    uniqueIndex('bank_accounts_account_uq').on(t.userId, t.accountNumber, t.ifsc),
    uniqueIndex('bank_accounts_one_primary_uq').on(t.userId).where(sql`${t.isPrimary}`),
  ],
);

/**
 * A member's paid membership; its fee is a ledger row of kind membership_fee (revenue).
 * Triggers that read its columns: stat_counters.sql (memberships_counters_insert/_delete): user_id.
 */
export const memberships = pgTable(
  'memberships',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: bigint('user_id', { mode: 'number' }).notNull().unique().references(() => users.userId),
    /** The price paid (the membership_fee), paise. */
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
    // Issue 16: the terms it was sold with (copied from the plan version in force that day) and
    // what the engine has paid on it. Memberships from before the engine have no plan and earn nothing.
    planId: integer('plan_id'),
    planVersionId: integer('plan_version_id'),
    dailyPaise: bigint('daily_paise', { mode: 'number' }).notNull().default(0),
    capPaise: bigint('cap_paise', { mode: 'number' }).notNull().default(0),
    durationDays: integer('duration_days').notNull().default(0),
    /** The first business day (Asia/Kolkata) it earns: the day after activation. */
    startsOn: date('starts_on'),
    /** Gross daily payouts earned so far (Success and Failure rows alike) and on how many days. */
    earnedPaise: bigint('earned_paise', { mode: 'number' }).notNull().default(0),
    daysEarned: integer('days_earned').notNull().default(0),
    /**
     * The last quarter (tds_quarter_members' key) the daily payout deducted TDS from this membership
     * (null: not known, or since reversed): the run enters the member in the quarter's set only on
     * the first deduction of a quarter (issue 25, docs/tax.md).
     */
    tdsQuarter: integer('tds_quarter'),
    /** 'active' earns; 'completed' reached its duration or cap; 'legacy' predates the engine. */
    status: text('status').$type<'active' | 'completed' | 'legacy'>().notNull().default('legacy'),
    /** 'wallet' (the fee debited from the wallet) or 'outside' (paid by other means, four eyes). */
    paidVia: text('paid_via').$type<'wallet' | 'outside'>(),
    paymentMethod: text('payment_method'),
    paymentReference: text('payment_reference'),
    activatedBy: bigint('activated_by', { mode: 'number' }),
    approvedBy: bigint('approved_by', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Date ranges and the list's orders with their id tie-break (sort=dateTime / sort=amount, either direction).
    index('memberships_created_at_id_idx').on(t.createdAt, t.id),
    index('memberships_amount_id_idx').on(t.amountPaise, t.id),
    // The daily payout run walks the earning memberships in id order, a chunk at a time.
    index('memberships_active_idx').on(t.id).where(sql`${t.status} = 'active'`),
    check('memberships_earned_within_cap', sql`${t.status} = 'legacy' or ${t.earnedPaise} <= ${t.capPaise}`),
    check('memberships_status', sql`${t.status} in ('active', 'completed', 'legacy')`),
  ],
);
