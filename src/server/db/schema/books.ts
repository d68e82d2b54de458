import { sql } from 'drizzle-orm';
import { bigint, check, date, index, integer, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import type { BookAccountCode, BookAccountType } from '../../../contract/books.ts';

/**
 * The books (issue 25, drizzle/0029, docs/books.md): double entry over accounts. Every member's
 * wallet is an account (its balance users.balance_paise, its legs the member's ledger_entries
 * rows); the company's own accounts are these. Amounts are credit-positive, as the member ledger
 * always was: every transfer's legs sum to zero and so does the trial balance.
 */
/** The chart's codes and types are the contract's (one list: contract/books.ts). */
export type BookAccount = BookAccountCode;

/** The chart of accounts (rows written by drizzle/0029). */
export const bookAccounts = pgTable(
  'book_accounts',
  {
    code: text('code').$type<BookAccount>().primaryKey(),
    name: text('name').notNull(),
    type: text('type').$type<BookAccountType>().notNull(),
    position: smallint('position').notNull(),
    description: text('description').notNull(),
  },
  (t) => [check('book_accounts_type_check', sql`${t.type} IN ('asset', 'liability', 'income', 'expense')`)],
);

/**
 * One money movement: its legs (the members' ledger lines naming it and its book_legs) sum to
 * zero. It names what caused it (run, income batch, approval, bank batch or operator) and, when it
 * corrects another, that one. Immutable (drizzle/functions/books.sql). Ledger lines from before
 * the books are each a transfer of their own with the line's id.
 */
export const transfers = pgTable(
  'transfers',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    kind: text('kind').notNull(),
    runId: bigint('run_id', { mode: 'number' }),
    batchId: integer('batch_id'),
    approvalId: bigint('approval_id', { mode: 'number' }),
    bankBatchId: bigint('bank_batch_id', { mode: 'number' }),
    actorId: bigint('actor_id', { mode: 'number' }),
    corrects: bigint('corrects', { mode: 'number' }),
    description: text('description'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('transfers_created_idx').on(t.createdAt, t.id),
    index('transfers_run_idx').on(t.runId, t.id).where(sql`${t.runId} IS NOT NULL`),
    index('transfers_corrects_idx').on(t.corrects).where(sql`${t.corrects} IS NOT NULL`),
  ],
);

/** A transfer's company side: one leg per account it moves (a run's chunk: one per account for all its members). */
export const bookLegs = pgTable(
  'book_legs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    transferId: bigint('transfer_id', { mode: 'number' }).notNull(),
    account: text('account').$type<BookAccount>().notNull(),
    amountPaise: bigint('amount_paise', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('book_legs_amount_not_zero', sql`${t.amountPaise} <> 0`),
    index('book_legs_transfer_idx').on(t.transferId),
    // drizzle/0029 adds INCLUDE (amount_paise, transfer_id), which has no builder here.
    index('book_legs_account_created_idx').on(t.account, t.createdAt, t.id),
  ],
);

/** Per India day, account and shard, kept with each leg (drizzle/functions/books.sql); readers add the shards up. */
export const bookDaily = pgTable(
  'book_daily',
  {
    account: text('account').notNull(),
    day: date('day').notNull(),
    shard: smallint('shard').notNull(),
    totalPaise: bigint('total_paise', { mode: 'number' }).notNull().default(0),
    legs: bigint('legs', { mode: 'number' }).notNull().default(0),
    /** The day's debits (a positive figure) and credits apart: total = credit − debit (drizzle/0035). */
    debitPaise: bigint('debit_paise', { mode: 'number' }).notNull().default(0),
    creditPaise: bigint('credit_paise', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.account, t.day, t.shard] })],
);
