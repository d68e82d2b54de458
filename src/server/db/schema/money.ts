import { sql } from 'drizzle-orm';
import {
  bigint, check, date, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './members.ts';

/** What a ledger row records. Credits are positive amounts, debits negative. */
export const LEDGER_KINDS = [
  'wallet_recharge', 'wallet_withdrawal', 'membership_fee', 'daily_payout',
  'royalty', 'reward', 'referral_bonus', 'admin_transfer',
  // Issue 16, the income engine: an upline's share of an activation; the deductions taken from a
  // daily payout (their own lines, debits); a membership fee paid outside the wallet comes in as
  // external_payment and goes out again as the membership_fee (net zero on the balance).
  'level_income', 'tds', 'admin_charge', 'external_payment',
  // Issue 22: a recovery settles what a reversal could not take back (a shortfall) from the
  // member's next credits: a debit, written by drizzle/functions/recovery.sql.
  'recovery',
  // Issue 25: a transfer to a member's bank that the bank returned comes back to the wallet.
  'bank_return',
  // A bank-mode daily payout sent on to the member's bank: the net that reached the wallet leaves
  // it again, to withdrawals_payable, and is gathered into a bank batch as a withdrawal is.
  'bank_payout',
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/**
 * One distribution run of royalty or reward income (spec §3 batch).
 * Triggers that read its columns (drizzle/functions/income_months.sql): income_batches_fixed
 * (kind, reward_type, run_date may not change), income_months_insert (batch_id, kind, reward_type,
 * run_date, through the credits' batch).
 */
export const incomeBatches = pgTable(
  'income_batches',
  {
    batchId: integer('batch_id').primaryKey().generatedByDefaultAsIdentity(),
    kind: text('kind').notNull(), // 'royalty' | 'reward'
    rewardType: text('reward_type'), // spec §9 reward types, for kind 'reward'
    runDate: date('run_date').notNull(),
    /** The engine run that wrote it (issue 16); null for batches from before the engine. */
    runId: bigint('run_id', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('income_batches_kind_date_idx').on(t.kind, t.runDate)],
);

/**
 * The wallet ledger: immutable, the single source of truth for every balance.
 * Triggers that read its columns (drizzle/functions/):
 * - ledger_totals.sql (ledger_daily_insert): created_at, kind, user_id, amount_paise;
 * - income_months.sql (income_months_insert): batch_id, user_id, amount_paise;
 * - ledger_immutable.sql (ledger_immutable): refuses every update and delete;
 * - recovery.sql (ledger_recovery_settle): user_id, kind, amount_paise, reversal_of (a member's
 *   credits settle what they owe: users.recovery_paise, run_shortfalls.recovered_paise).
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    // No foreign key (issue 16, performance: 53,000 checks a daily payout chunk): every writer takes the
    // id of a member it has just read or locked; a member is never deleted; the money invariants check it.
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    kind: text('kind').$type<LedgerKind>().notNull(),
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
    // No foreign key (issue 16, performance): every writer takes the id of a batch it created in
    // the same run or transaction, and batches are never deleted; money-invariants.ts checks that
    // every batch_id resolves (the daily payout run at a million memberships paid ~6 % for the check).
    batchId: integer('batch_id'),
    description: text('description'),
    actorId: bigint('actor_id', { mode: 'number' }),
    /** The engine run that wrote it (issue 16): a reversal compensates exactly these rows. */
    runId: bigint('run_id', { mode: 'number' }),
    /** A reversal's compensating row names the row it compensates; each row is compensated at most once. */
    reversalOf: bigint('reversal_of', { mode: 'number' }),
    /** The transfer the line is a leg of (issue 25, drizzle/0029); lines from before the books are their own transfer (this is null, the transfer's id is the line's). */
    transferId: bigint('transfer_id', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ledger_reversal_of_uq').on(t.reversalOf).where(sql`${t.reversalOf} is not null`),
    // A run's rows by member (a reversal works the run member range by member range), then in order.
    index('ledger_run_idx').on(t.runId, t.userId, t.id).where(sql`${t.runId} is not null`),
    check('ledger_amount_not_zero', sql`${t.amountPaise} <> 0`),
    index('ledger_user_created_idx').on(t.userId, t.createdAt),
    index('ledger_kind_created_idx').on(t.kind, t.createdAt),
    // Issue 24 (drizzle/0025): a member's ledger by kind, newest first, and their earned-to-date
    // per kind summed from the index alone; the INCLUDE (amount_paise, reversal_of) has no builder here.
    index('ledger_user_kind_created_idx').on(t.userId, t.kind, t.createdAt, t.id),
    // Issue 24 (drizzle/0025): the wallet list filtered to another kind, by the amount as shown.
    index('ledger_kind_abs_amount_idx').on(t.kind, sql`abs(${t.amountPaise})`, t.id)
      .where(sql`${t.kind} NOT IN ('wallet_recharge', 'wallet_withdrawal')`),
    // Revenue by amount (sort=amount / -amount): membership fees only.
    index('ledger_fee_amount_id_idx').on(t.amountPaise, t.id).where(sql`${t.kind} = 'membership_fee'`),
    // drizzle/0013 adds ledger_wallet_keyset_idx (kind, created_at, id) INCLUDE (user_id, amount_paise)
    // for the wallet kinds, the wallet export's keyset ranges; it has no builder here.
    // The wallet list sorted or filtered by amount (issue 15), one range per kind. The list shows
    // amounts without their sign and withdrawals are negative: a withdrawal's larger amount is a
    // lower amount_paise, so its index runs id the other way for the (amount, id) order to be one range.
    index('ledger_recharge_amount_idx').on(t.amountPaise, t.id).where(sql`${t.kind} = 'wallet_recharge'`),
    index('ledger_withdrawal_amount_idx').on(t.amountPaise, t.id.desc().nullsFirst()).where(sql`${t.kind} = 'wallet_withdrawal'`),
    // A batch's receivers, and the credits of a page of receivers in a batch (income reports).
    index('ledger_batch_user_idx').on(t.batchId, t.userId).where(sql`${t.batchId} is not null`),
  ],
);

/**
 * Per-day totals per ledger kind (business day in Asia/Kolkata), kept by a trigger in the same
 * transaction as each ledger row (drizzle/functions/ledger_totals.sql). Split into 8 shards by user so that concurrent writers on one
 * day do not queue on a single row; readers add the shards up.
 */
export const ledgerDaily = pgTable(
  'ledger_daily',
  {
    day: date('day').notNull(),
    kind: text('kind').notNull(),
    shard: smallint('shard').notNull(),
    totalPaise: bigint('total_paise', { mode: 'number' }).notNull().default(0),
    entries: bigint('entries', { mode: 'number' }).notNull().default(0),
    /** The day's debits (a positive figure) and credits apart: total = credit − debit (drizzle/0035). */
    debitPaise: bigint('debit_paise', { mode: 'number' }).notNull().default(0),
    creditPaise: bigint('credit_paise', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.kind, t.day, t.shard] })],
);

/**
 * All-time totals per ledger kind, in the same 8 shards and kept by the same trigger as
 * ledger_daily (drizzle/functions/ledger_totals.sql): "how many wallet transactions" without summing a year of days.
 */
export const ledgerTotals = pgTable(
  'ledger_totals',
  {
    kind: text('kind').notNull(),
    shard: smallint('shard').notNull(),
    totalPaise: bigint('total_paise', { mode: 'number' }).notNull().default(0),
    entries: bigint('entries', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.kind, t.shard] })],
);

/**
 * One payout per member and day, Success or Failure (decisions.md).
 * Triggers that read its columns: payouts_daily.sql (payouts_daily_insert/_update/_delete, all
 * running payouts_daily_add): payout_date, status, amount_paise.
 */
export const dailyPayouts = pgTable(
  'daily_payouts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    // No foreign key (issue 16, performance), as ledger_entries.user_id: the money invariants check it.
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    payoutDate: date('payout_date').notNull(),
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
    status: text('status').$type<'Success' | 'Failure' | 'Reversed'>().notNull(),
    // No foreign key (issue 16, performance): the id is the one the same statement gives the
    // ledger row it inserts (daily payout run, Pay Now), and the ledger is immutable (no delete);
    // money-invariants.ts checks that every ledger_entry_id resolves.
    ledgerEntryId: bigint('ledger_entry_id', { mode: 'number' }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    // Issue 16: the run that wrote it, the gross earned and the deductions (amount = gross − tds −
    // admin charge, what the member receives), and why a Failure row could not be paid.
    runId: bigint('run_id', { mode: 'number' }),
    grossPaise: bigint('gross_paise', { mode: 'number' }),
    tdsPaise: bigint('tds_paise', { mode: 'number' }).notNull().default(0),
    adminChargePaise: bigint('admin_charge_paise', { mode: 'number' }).notNull().default(0),
    reason: text('reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    // Issue 24: a reversed run's rows stay, status 'Reversed', with who reversed them, when, why,
    // and what they were before (Success or Failure).
    reversedBy: bigint('reversed_by', { mode: 'number' }),
    reversedAt: timestamp('reversed_at', { withTimezone: true }),
    reversalReason: text('reversal_reason'),
    reversedStatus: text('reversed_status').$type<'Success' | 'Failure'>(),
  },
  (t) => [
    index('daily_payouts_run_idx').on(t.runId, t.userId).where(sql`${t.runId} is not null`),
    check('daily_payouts_amount_positive', sql`${t.amountPaise} > 0`),
    check('daily_payouts_status', sql`${t.status} in ('Success', 'Failure', 'Reversed')`),
    // One live payout per member and day; reversed ones stay beside a re-run's (drizzle/0026).
    uniqueIndex('daily_payouts_user_day_uq').on(t.userId, t.payoutDate).where(sql`${t.status} <> 'Reversed'`),
    index('daily_payouts_user_idx').on(t.userId, t.payoutDate),
    // Pages newest first (date, then id) without a sort; the totals come from payouts_daily.
    index('daily_payouts_date_id_idx').on(t.payoutDate, t.id),
    // The list's other orders (sort=amount / sort=status, either direction), with the id tie-break.
    index('daily_payouts_amount_id_idx').on(t.amountPaise, t.id),
    index('daily_payouts_status_id_idx').on(t.status, t.id),
  ],
);

/**
 * Per-day payout counts and amounts by status, kept by triggers on daily_payouts
 * (drizzle/functions/payouts_daily.sql),
 * so month totals and charts never scan a month of payout rows.
 */
export const payoutsDaily = pgTable(
  'payouts_daily',
  {
    day: date('day').notNull(),
    status: text('status').notNull(),
    payouts: bigint('payouts', { mode: 'number' }).notNull().default(0),
    totalPaise: bigint('total_paise', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.status] })],
);

/** Withdrawal requests: approved ones debit the wallet, rejected ones move nothing. */
export const withdrawalRequests = pgTable(
  'withdrawal_requests',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    userId: bigint('user_id', { mode: 'number' }).notNull().references(() => users.userId),
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
    status: text('status').$type<'pending' | 'approved' | 'rejected'>().notNull().default('pending'),
    remarks: text('remarks'),
    ledgerEntryId: bigint('ledger_entry_id', { mode: 'number' }).references(() => ledgerEntries.id),
    /** The operator who filed it: they cannot approve it themselves (four eyes). */
    requestedBy: bigint('requested_by', { mode: 'number' }),
    decidedBy: bigint('decided_by', { mode: 'number' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('withdrawal_amount_positive', sql`${t.amountPaise} > 0`),
    index('withdrawal_requests_status_idx').on(t.status, t.createdAt),
  ],
);

/**
 * Four eyes on money: a movement above the approval threshold waits here until a second operator
 * (money_approve, not the maker, not the wallet's owner) approves it — then it runs, in the same
 * transaction as the decision — or rejects it.
 */
export const moneyRequests = pgTable(
  'money_requests',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    /** wallet_recharge, wallet_withdrawal, admin_transfer, pay_payout or withdrawal_approval. */
    kind: text('kind').notNull(),
    /** The member whose money moves; null for a change that names no member (a plan, the settings: issue 22). */
    userId: bigint('user_id', { mode: 'number' }).references(() => users.userId),
    /** The amount moved; for a compensation change, its projected cost over 30 days (may be 0). */
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
    /** The original request body (and ids), replayed when approved. */
    payload: jsonb('payload').notNull(),
    status: text('status').$type<'pending' | 'approved' | 'rejected' | 'expired'>().notNull().default('pending'),
    makerId: bigint('maker_id', { mode: 'number' }).notNull(),
    checkerId: bigint('checker_id', { mode: 'number' }),
    remarks: text('remarks'),
    /** What the movement answered when it ran (its ledger entry and balance). */
    result: jsonb('result'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('money_requests_amount_not_negative', sql`${t.amountPaise} >= 0`),
    index('money_requests_status_idx').on(t.status, t.createdAt, t.id),
    index('money_requests_maker_idx').on(t.makerId, t.createdAt),
    // Issue 24: the approval behind a member's ledger line (the member's approved requests).
    index('money_requests_user_approved_idx').on(t.userId, t.id).where(sql`${t.status} = 'approved'`),
    // The Approvals screen's sorts within a status (issue 15), ties by id.
    index('money_requests_status_amount_idx').on(t.status, t.amountPaise, t.id),
    index('money_requests_status_kind_idx').on(t.status, t.kind, t.id),
  ],
);

/**
 * Credits and debits each operator made per business day (Asia/Kolkata): the daily credit and
 * debit limits read one row.
 */
export const operatorDailyCredits = pgTable(
  'operator_daily_credits',
  {
    actorId: bigint('actor_id', { mode: 'number' }).notNull(),
    day: date('day').notNull(),
    paise: bigint('paise', { mode: 'number' }).notNull().default(0),
    /** Debits (withdrawals by the operator, approved withdrawal requests) of the day (issue 22). */
    debitPaise: bigint('debit_paise', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.actorId, t.day] })],
);

/**
 * What one operator moved to or from one member in a business day, credits and debits added up
 * (issue 22): the approval threshold applies to this sum, so splitting an amount never avoids it.
 */
export const operatorMemberDaily = pgTable(
  'operator_member_daily',
  {
    actorId: bigint('actor_id', { mode: 'number' }).notNull(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    day: date('day').notNull(),
    paise: bigint('paise', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.actorId, t.userId, t.day] })],
);

/**
 * Royalty and reward income per calendar month (of the batch run date), kind, reward type ('' for
 * royalty) and receiver, kept by a trigger on ledger_entries in the same transaction as the
 * credits (drizzle/functions/income_months.sql). A month's page of receivers is read in order from the
 * (…, total_paise desc, user_id) index instead of grouping a month of ledger rows per request.
 */
export const incomeMonthUsers = pgTable(
  'income_month_users',
  {
    kind: text('kind').notNull(),
    rewardKey: text('reward_key').notNull(),
    month: date('month').notNull(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    totalPaise: bigint('total_paise', { mode: 'number' }).notNull().default(0),
    entries: bigint('entries', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.rewardKey, t.month, t.userId] }),
    index('income_month_users_top_idx').on(t.kind, t.rewardKey, t.month, t.totalPaise.desc(), t.userId),
  ],
);

/**
 * The month's totals of income_month_users: amount, credits and distinct receivers, kept by the
 * same trigger (drizzle/functions/income_months.sql).
 */
export const incomeMonthTotals = pgTable(
  'income_month_totals',
  {
    kind: text('kind').notNull(),
    rewardKey: text('reward_key').notNull(),
    month: date('month').notNull(),
    totalPaise: bigint('total_paise', { mode: 'number' }).notNull().default(0),
    entries: bigint('entries', { mode: 'number' }).notNull().default(0),
    users: bigint('users', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.kind, t.rewardKey, t.month] })],
);

/**
 * The TDS report's rollup (issue 25, docs/tax.md): the members with TDS in each quarter of the
 * Indian financial year (`quarter` = the year it starts in April × 10 + 1..4, 20261 = Apr–Jun
 * 2026, of the line's India day). Kept in the same transaction as the ledger lines: by the daily
 * payout's chunk for its own lines (daily-payout.ts), by a trigger on ledger_entries for every
 * other writer (drizzle/functions/tds_quarters.sql). A page of the report is one range of the key.
 */
export const tdsQuarterMembers = pgTable(
  'tds_quarter_members',
  {
    quarter: integer('quarter').notNull(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ name: 'tds_quarter_members_pk', columns: [t.quarter, t.userId] })],
);

/** Per quarter and shard (the writer's txid mod 8): the members with TDS, the gross paid with a deduction, the TDS and the TDS at the no-PAN rate; kept with tds_quarter_members. */
export const tdsQuarterTotals = pgTable(
  'tds_quarter_totals',
  {
    quarter: integer('quarter').notNull(),
    shard: smallint('shard').notNull(),
    members: bigint('members', { mode: 'number' }).notNull().default(0),
    grossPaise: bigint('gross_paise', { mode: 'number' }).notNull().default(0),
    tdsPaise: bigint('tds_paise', { mode: 'number' }).notNull().default(0),
    tdsWithoutPanPaise: bigint('tds_without_pan_paise', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ name: 'tds_quarter_totals_pk', columns: [t.quarter, t.shard] })],
);
